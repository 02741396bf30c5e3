import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ConfirmStep, confirmIntent } from "~/components/confirm-step";
import { Button, buttonClass } from "~/components/ui/button";
import { Card, cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { pages } from "~/content/pages";
import { allVentures, ventureIds } from "~/features/ventures/catalogue.server";
import { withKnownVenture } from "~/features/ventures/venture-field";
import { alertProgress, fanOutAlerts } from "~/features/alerts/alerts.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { renderMarkdown } from "~/features/news/markdown.server";
import { NEWS_LIMITS, newsPath, newsSchema } from "~/features/news/news-form";
import { deleteNews, listAllNews, newsById, saveNews, unpublishNews } from "~/features/news/news.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
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

/** "alert sent N of M", while the alert is being queued "(still queuing)". */
const progressText = (p: { sent: number; total: number; preparing: boolean }) =>
  `alert sent ${formatInteger(p.sent)} of ${formatInteger(p.total)}${p.preparing ? " (still queuing)" : ""}`;

export default function NewsAdmin() {
  const { items, editing, confirmDelete, ventures } = useLoaderData<typeof loader>();
  const ventureName = (id: string | null) => (id ? (ventures.find((v) => v.id === id)?.name ?? id) : "The group");
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10 [overflow-wrap:anywhere]">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>
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
      <NewsForm key={editing?.id ?? "new"} />
      <section aria-labelledby="news-list-heading" className="mt-10">
        <h2 id="news-list-heading" className="text-xl font-semibold">
          All news ({formatInteger(items.length)})
        </h2>
        {items.length === 0 ? (
          <p className="mt-3 text-muted-foreground">Nothing written yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {items.map((item) => (
              <li key={item.id} id={`news-${item.id}`}>
                <Card padding="sm" className="flex flex-wrap items-center justify-between gap-3">
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
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function NewsForm() {
  const { editing, editingPreview, editingAlert } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const previewer = useFetcher<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const lastResult =
    navigation.state === "idle" && actionData && "result" in actionData ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "news-form",
    lastResult,
    defaultValue: editing
      ? {
          title: editing.title,
          summary: editing.summary,
          body: editing.body,
          venture: editing.venture ?? "",
          publish: editing.status === "published" ? "on" : undefined,
          alert: editing.alert ? "on" : undefined,
        }
      : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newsSchema }),
  });
  // The live preview: the body as the server renders it, asked for a moment after typing stops.
  const onBodyInput = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const data = new FormData(formRef.current);
      data.set("intent", "preview");
      previewer.submit(data, { method: "post", action: page.path, encType: "multipart/form-data" });
    }, 400);
  };
  const fetched = previewer.data && "preview" in previewer.data ? previewer.data.preview : null;
  const submitted = actionData && "preview" in actionData ? actionData.preview : null;
  const preview = fetched ?? submitted ?? editingPreview;
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const previewTitle = fields.title.value ?? editing?.title ?? "";
  const previewSummary = fields.summary.value ?? editing?.summary ?? "";
  return (
    <section aria-labelledby="news-form-heading" className="mt-8">
      <h2 id="news-form-heading" className="text-xl font-semibold">
        {editing ? `Edit: ${editing.title}` : "Write news"}
      </h2>
      {editing?.status === "published" ? (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="news-mail-status">
          {editingAlert
            ? `Investors were e-mailed when it was published (${progressText(editingAlert)}).`
            : "No investor alert was sent for it."}{" "}
          Saving an edit never e-mails investors again.
        </p>
      ) : null}
      {editing ? (
        <p className="mt-1 text-sm">
          <Link to={page.path} className="text-primary underline-offset-4 hover:underline">
            Write a new item instead
          </Link>
        </p>
      ) : null}
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        action={page.path}
        {...getFormProps(form)}
        noValidate
        className={cardClass("lg", "mt-4 space-y-4")}
      >
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field label="Title" field={fields.title}>
          <Input field={fields.title} maxLength={NEWS_LIMITS.title} />
        </Field>
        <Field label="Summary (the text of the feed and the alert e-mail)" field={fields.summary}>
          <Textarea field={fields.summary} rows={2} maxLength={NEWS_LIMITS.summary} />
        </Field>
        <div className="grid gap-4 lg:grid-cols-[1fr_16rem]">
          <Field label="Body (Markdown)" field={fields.body}>
            <Textarea field={fields.body} rows={12} maxLength={NEWS_LIMITS.body} onInput={onBodyInput} />
          </Field>
          <MarkdownGuide />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={fields.venture.id} className="text-sm font-medium">
            Venture
          </label>
          <select
            {...getSelectProps(fields.venture)}
            key={fields.venture.key}
            className="block h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            <option value="">The group (no venture)</option>
            {useLoaderData<typeof loader>().ventures.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {fields.venture.errors ? (
            <p id={fields.venture.errorId} className="text-sm text-destructive">
              {fields.venture.errors.join(" ")}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <input {...getInputProps(fields.publish, { type: "checkbox" })} key={fields.publish.key} className="size-4" />
          <label htmlFor={fields.publish.id} className="text-sm font-medium">
            Publish
          </label>
        </div>
        <div className="flex items-center gap-2">
          <input {...getInputProps(fields.alert, { type: "checkbox" })} key={fields.alert.key} className="size-4" />
          <label htmlFor={fields.alert.id} className="text-sm font-medium">
            E-mail investor-alert subscribers when published
          </label>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </Button>
          <Button type="submit" name="intent" value="preview" variant="outline" formNoValidate>
            Preview
          </Button>
        </div>
      </Form>
      {preview !== null ? (
        <section aria-labelledby="news-preview-heading" className={cardClass("lg", "mt-4")}>
          <h3 id="news-preview-heading" className="text-sm font-semibold uppercase text-muted-foreground">
            Preview
          </h3>
          <p className="mt-3 text-2xl font-bold tracking-tight [overflow-wrap:anywhere]" data-testid="preview-title">
            {previewTitle || "(no title yet)"}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {editing?.publishedAt ? formatDateTime(editing.publishedAt) : "Dated the day it is published"}
          </p>
          {previewSummary ? (
            <p className="mt-2 text-muted-foreground [overflow-wrap:anywhere]" data-testid="preview-summary">
              {previewSummary}
            </p>
          ) : null}
          {/* The server's rendering: raw HTML off, links and images judged (markdown.server.ts). */}
          <div className="news-body mt-3" dangerouslySetInnerHTML={{ __html: preview }} />
        </section>
      ) : null}
    </section>
  );
}

/** What the body's Markdown may use, beside the body (markdown.server.ts decides; this says it). */
function MarkdownGuide() {
  return (
    <aside aria-labelledby="markdown-guide-heading" className="text-sm text-muted-foreground">
      <h3 id="markdown-guide-heading" className="font-medium text-foreground">
        Markdown in the body
      </h3>
      <ul className="mt-2 grid gap-1 [overflow-wrap:anywhere]">
        <li>
          <code>**bold**</code>, <code>*italic*</code>, <code>`code`</code>
        </li>
        <li>
          <code>## Heading</code>, <code>- list item</code>, <code>1. numbered</code>, <code>&gt; quote</code>
        </li>
        <li>
          <code>[text](https://…)</code>: links to http(s), mailto: or a page of this site; any other link shows its
          text only.
        </li>
        <li>
          <code>![alt](…)</code>: no images; an image shows as its alt text.
        </li>
        <li>HTML is shown as text, never run.</li>
        <li>A blank line starts a new paragraph.</li>
      </ul>
    </aside>
  );
}
