import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmStep, confirmIntent } from "~/components/confirm-step";
import { Button, buttonClass } from "~/components/ui/button";
import { pages } from "~/content/pages";
import { allVentures, ventureIds } from "~/features/ventures/catalogue.server";
import { withKnownVenture } from "~/features/ventures/venture-field";
import { alertProgress, fanOutAlerts } from "~/features/alerts/alerts.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { renderMarkdown } from "~/features/news/markdown.server";
import { NewsEditor, progressText } from "~/features/news/news-editor";
import { NEWS_LIMITS, newsPath, newsSchema } from "~/features/news/news-form";
import { deleteNews, listAllNews, newsById, saveNews, unpublishNews } from "~/features/news/news.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { formatDateTime } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
import { AdminList } from "~/components/admin/admin-list";
import { AdminPage } from "~/components/admin/admin-page";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.newsAdmin;
/** A form at every limit, 3 bytes a character (multipart sends raw UTF-8), and room for the parts. */
const MAX_BODY = (NEWS_LIMITS.title + NEWS_LIMITS.summary + NEWS_LIMITS.body) * 3 + 4096;

const idOf = (value: unknown): number | null => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const url = new URL(request.url);
  const editId = idOf(url.searchParams.get("edit"));
  const [items, editing, ventures] = await Promise.all([
    listAllNews(db),
    editId ? newsById(db, editId) : null,
    allVentures(db),
  ]);
  const progress = await alertProgress(
    db,
    "news",
    items.map((i) => String(i.id)),
  );
  const withProgress = items.map((i) => ({ ...i, alertProgress: progress.get(String(i.id)) ?? null }));
  // The confirmation step of a delete (`?confirm=delete&id=N`), which works without JavaScript.
  const deleteId = confirmIntent(request, ["delete"]) ? idOf(url.searchParams.get("id")) : null;
  return json(
    {
      items: withProgress,
      editing,
      editingAlert: editing ? (progress.get(String(editing.id)) ?? null) : null,
      editingPreview: editing ? renderMarkdown(editing.body) : null,
      confirmDelete: withProgress.find((i) => i.id === deleteId) ?? null,
      ventures: ventures.map(({ id, name }) => ({ id, name })),
    },
    { headers: NO_STORE },
  );
}

const bad = (message: string) => new Response(message, { status: 400, headers: NO_STORE });

/**
 * `POST /admin/news`, by `intent`: `preview` renders the body (the page's live preview, and the
 * Preview button without JavaScript), `save` creates or changes an item (`id`), `unpublish` and
 * `delete` act on one. Cross-site → 403, not an admin → 404, bad input → 400 (the form's errors).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const form = await readForm(request, { maxBytes: MAX_BODY });
  const intent = form.get("intent");
  const db = getDb(env);
  const id = form.has("id") && form.get("id") !== "" ? idOf(form.get("id")) : null;
  if (form.has("id") && form.get("id") !== "" && id === null) throw bad("Bad request: the id is not a number.");

  if (intent === "unpublish" || intent === "delete") {
    if (id === null) throw bad("Bad request: expected an id.");
    const item = intent === "delete" ? await deleteNews(db, id, admin.email) : await unpublishNews(db, id, admin.email);
    if (!item) throw new Response("No such news item.", { status: 404, headers: NO_STORE });
    return redirectWithToast(
      env,
      request,
      intent === "delete" ? page.path : `${page.path}?edit=${id}`,
      { title: intent === "delete" ? "Deleted" : "Unpublished" },
      { status: 303, headers: NO_STORE },
    );
  }
  if (intent !== "save" && intent !== "preview") throw bad("Bad request: unknown intent.");

  const submission = parseWithZod(form, { schema: withKnownVenture(newsSchema, await ventureIds(db)) });
  const body = form.get("body");
  const preview = typeof body === "string" ? renderMarkdown(body.slice(0, NEWS_LIMITS.body)) : "";
  if (intent === "preview") return json({ result: submission.reply(), preview }, { headers: NO_STORE });
  if (submission.status !== "success")
    return json({ result: submission.reply(), preview }, { status: 400, headers: NO_STORE });

  const before = id === null ? null : await newsById(db, id);
  const mailedBefore = id !== null && (await alertProgress(db, "news", [String(id)])).has(String(id));
  const saved = await saveNews(db, {
    id,
    input: submission.value,
    actor: admin.email,
    siteUrl: getConfig(env).siteUrl,
  });
  if (!saved) throw new Response("No such news item.", { status: 404, headers: NO_STORE });
  if (saved.alerted) ctx.waitUntil(fanOutAlerts(env, ctx));
  const published = saved.item.status === "published";
  const wasPublished = before?.status === "published";
  return redirectWithToast(
    env,
    request,
    `${page.path}?edit=${saved.item.id}`,
    {
      title: !published ? "Saved as draft" : wasPublished ? "Saved" : "Published",
      ...(published ? { description: mailText({ alerted: saved.alerted, mailedBefore }) } : {}),
    },
    { status: 303, headers: NO_STORE },
  );
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

/** What a save of a published item did about investor alerts: an edit never sends again. */
function mailText({ alerted, mailedBefore }: { alerted: boolean; mailedBefore: boolean }) {
  if (alerted) return "Investor alerts are on their way.";
  if (mailedBefore) return "Investors were e-mailed when it was first published; an edit sends nothing again.";
  return "No investor alert was sent.";
}

export default function NewsAdmin() {
  const { items, editing, editingPreview, editingAlert, confirmDelete, ventures } = useLoaderData<typeof loader>();
  const ventureName = (id: string | null) => (id ? (ventures.find((v) => v.id === id)?.name ?? id) : "The group");
  return (
    <AdminPage page={page} className="[overflow-wrap:anywhere]">
      {confirmDelete ? (
        <ConfirmStep
          title={`Delete “${confirmDelete.title}”?`}
          body={
            (confirmDelete.status === "published" ? "It leaves /news and the feeds at once. " : "") +
            (confirmDelete.alertProgress
              ? "Its investor alert was already e-mailed; e-mails sent cannot be recalled. "
              : "") +
            "This cannot be undone."
          }
          button="Delete"
          intent="delete"
          action={page.path}
          fields={{ id: confirmDelete.id }}
          cancelTo={`${page.path}#news-${confirmDelete.id}`}
        />
      ) : null}
      <NewsEditor
        key={editing?.id ?? "new"}
        action={page.path}
        editing={editing}
        editingPreview={editingPreview}
        editingAlert={editingAlert}
        ventures={ventures}
      />
      <AdminList
        id="news-list-heading"
        title="All news"
        items={items}
        itemKey={(item) => item.id}
        itemId={(item) => `news-${item.id}`}
        empty="Nothing written yet."
        cardClassName="flex flex-wrap items-center justify-between gap-3"
      >
        {(item) => (
          <>
            <div className="min-w-0">
              <p className="font-medium [overflow-wrap:anywhere]">{item.title}</p>
              <p className="text-sm text-muted-foreground">
                {item.status === "published" ? "Published" : "Draft"} · {ventureName(item.venture)} · changed{" "}
                {formatDateTime(item.updatedAt)}
                {item.alertProgress ? (
                  <>
                    {" · "}
                    <span data-alert-progress>{progressText(item.alertProgress)}</span>
                  </>
                ) : null}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Link to={`${page.path}?edit=${item.id}`} className={buttonClass("outline")}>
                Edit<span className="sr-only"> {item.title}</span>
              </Link>
              {item.status === "published" ? (
                <>
                  <Link to={newsPath(item.slug)} className={buttonClass("outline")}>
                    View<span className="sr-only"> {item.title}</span>
                  </Link>
                  <Form method="post" action={page.path}>
                    <input type="hidden" name="id" value={item.id} />
                    <Button type="submit" name="intent" value="unpublish" variant="outline">
                      Unpublish<span className="sr-only"> {item.title}</span>
                    </Button>
                  </Form>
                </>
              ) : null}
              <Link to={`${page.path}?confirm=delete&id=${item.id}`} className={buttonClass("destructive")}>
                Delete<span className="sr-only"> {item.title}</span>
              </Link>
            </div>
          </>
        )}
      </AdminList>
    </AdminPage>
  );
}
