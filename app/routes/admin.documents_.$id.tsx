import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ConfirmStep, confirmIntent } from "~/components/confirm-step";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { allVentures } from "~/features/ventures/catalogue.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { changeDocument, uploadVersion } from "~/features/documents/admin.server";
import { alertProgress, type AlertProgress } from "~/features/alerts/alerts.server";
import { documentWithVersions } from "~/features/documents/catalogue.server";
import { documentAlertId } from "~/features/documents/hooks.server";
import { DOCUMENT_FORMS, documentFieldsSchema } from "~/features/documents/forms";
import { documentStatus, formatBytes, versionPath, VISIBILITY_LABELS } from "~/features/documents/library";
import { DOCUMENT_FIELD_LABELS, DocumentFields, NewVersionForm } from "~/features/documents/upload-form";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The actions this page asks about first (`?confirm=`). */
const CONFIRMED = ["unpublish", "delete"] as const;
const ROUTE_ID = "routes/admin.documents_.$id";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [found, ventures] = await Promise.all([documentWithVersions(db, params.id ?? ""), allVentures(db)]);
  if (!found) throw new Response("Not Found", { status: 404, headers: NO_STORE });
  const id = found.document.id;
  const progress = await alertProgress(
    db,
    "document",
    found.versions.map((v) => documentAlertId(id, v.sha256)),
  );
  return json(
    {
      ...found,
      // Each version's investor alert ("sent N of M"), or null: none was sent for it.
      alerts: Object.fromEntries(
        found.versions.map((v) => [v.id, progress.get(documentAlertId(id, v.sha256)) ?? null]),
      ),
      // The confirmation step of an unpublish or a delete (`?confirm=`), which works without JavaScript.
      confirm: confirmIntent(request, CONFIRMED),
      maxBytes: getConfig(env).documentMaxBytes,
      ventures: ventures.map(({ id, name }) => ({ id, name })),
    },
    { headers: NO_STORE },
  );
}

/**
 * `POST /admin/documents/<id>`: multipart/form-data with `file` (and `alert`) uploads a new
 * version; a plain form with `intent` edits, publishes, withdraws, restores a version or deletes.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const id = params.id ?? "";
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  return multipart
    ? uploadVersion(request, env, context.cloudflare.ctx, admin, id)
    : changeDocument(request, env, context.cloudflare.ctx, admin, id);
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta({
    page: {
      title: data ? `${data.document.title} · ${pages.documentLibrary.title}` : pages.documentLibrary.title,
      description: pages.documentLibrary.description,
      path: pages.documentLibrary.path,
    },
    matches,
  }),
  { name: "robots", content: "noindex" },
];

export default function AdminDocument() {
  const { document: doc, versions, alerts, confirm, maxBytes, ventures } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const here = `${pages.documentLibrary.path}/${doc.id}`;
  // Each form shows only its own reply: the page's two forms share the action data.
  const replyTo = (form: string) =>
    actionData && "form" in actionData && actionData.form === form ? actionData.result : undefined;
  const editResult = navigation.state === "idle" ? replyTo(DOCUMENT_FORMS.edit) : undefined;
  const [form, fields] = useForm({
    id: DOCUMENT_FORMS.edit,
    lastResult: editResult,
    defaultValue: {
      title: doc.title,
      description: doc.description,
      category: doc.category,
      venture: doc.ventureId ?? "",
      visibility: doc.visibility,
    },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: documentFieldsSchema }),
  });
  const published = doc.status === "published";
  const problems = fieldProblems(fields, DOCUMENT_FIELD_LABELS);
  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 pt-10 [overflow-wrap:anywhere]">
      <p className="text-sm">
        <Link to={pages.documentLibrary.path} className="underline underline-offset-4">
          ← {pages.documentLibrary.title}
        </Link>
      </p>
      <header className="mt-4">
        <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere]">{doc.title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          <span data-testid="status">{documentStatus(doc)}</span> · {VISIBILITY_LABELS[doc.visibility]} · Stable URL:{" "}
          <a href={doc.path} className="break-all underline underline-offset-4">
            {doc.path}
          </a>
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {published ? (
            // Unpublishing takes the file down at once: asked first, without JavaScript too.
            <Link to="?confirm=unpublish" className={buttonClass("outline")}>
              Unpublish
            </Link>
          ) : (
            <Form method="post" action={here}>
              <input type="hidden" name="intent" value="publish" />
              <Button type="submit" variant="primary">
                Publish
              </Button>
              {doc.visibility === "public" ? (
                <label className="ml-3 inline-flex items-center gap-2 text-sm">
                  <input type="checkbox" name="alert" />
                  E-mail investor-alert subscribers
                </label>
              ) : (
                <span className="ml-3 text-sm text-muted-foreground">
                  Members-only documents send no investor alert.
                </span>
              )}
            </Form>
          )}
          <Link to="?confirm=delete" className={buttonClass("destructive")}>
            Delete
          </Link>
        </div>
        {confirm === "unpublish" && published ? (
          <ConfirmStep
            intent="unpublish"
            action={here}
            title="Unpublish this document?"
            body="Its stable URL and every version's URL stop serving the file at once, and it leaves the public list. You can publish it again later; nobody is mailed either way."
            button="Unpublish"
            cancelTo={here}
          />
        ) : null}
        {confirm === "delete" ? (
          <ConfirmStep
            title={`Delete “${doc.title}” and every version of it?`}
            body={`Its ${versions.length === 1 ? "file" : `${versions.length} files`} and every address of ${versions.length === 1 ? "it" : "them"} stop working at once, for everyone. This cannot be undone.`}
            button="Delete"
            intent="delete"
            action={here}
            cancelTo={here}
          />
        ) : null}
      </header>

      <Card as="section" padding="lg" aria-labelledby="edit-heading" className="mt-8">
        <h2 id="edit-heading" className="mb-4 text-xl font-semibold">
          Details
        </h2>
        <Form method="post" action={answerAction(here, form.id)} {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value="edit" />
          <DocumentFields fields={fields} ventures={ventures} />
          <FormAnswer
            formId={form.id}
            answer={editResult}
            message={answerMessage(form, problems)}
            problems={problems}
          />
          <Button type="submit" className="justify-self-start">
            Save details
          </Button>
        </Form>
      </Card>

      <Card as="section" padding="lg" aria-labelledby="version-heading" className="mt-8">
        <h2 id="version-heading" className="mb-4 text-xl font-semibold">
          Upload a new version
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">
          The new file replaces the current one at the stable URL at once; every earlier version keeps its own URL.
        </p>
        <NewVersionForm
          action={here}
          routeId={ROUTE_ID}
          lastResult={replyTo(DOCUMENT_FORMS.version)}
          maxBytes={maxBytes}
        />
      </Card>

      <section aria-labelledby="versions-heading" className="mt-8">
        <h2 id="versions-heading" className="text-xl font-semibold">
          Versions
        </h2>
        <ol className="mt-3 grid gap-3">
          {versions.map((v, i) => {
            const current = v.id === doc.currentVersionId;
            return (
              <Card as="li" padding="md" key={v.id} data-testid="version" data-current={current || undefined}>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="min-w-0 text-sm">
                    <a href={versionPath(v.sha256)} className="break-all font-medium underline underline-offset-4">
                      {v.fileName}
                    </a>
                    <p className="text-muted-foreground">
                      <span className="font-medium text-foreground">v{versions.length - i}</span> ·{" "}
                      <time dateTime={new Date(v.uploadedAt).toISOString()}>{formatDateTime(v.uploadedAt)}</time> ·{" "}
                      {formatBytes(v.size)} · <span className="[overflow-wrap:anywhere]">{v.uploadedBy}</span>
                      {current ? " · current" : ""}
                      {v.withdrawnAt === null ? "" : " · withdrawn: its URL serves nothing"}
                    </p>
                    <p className="text-muted-foreground" data-testid="alert-status">
                      {alertStatus(alerts[v.id] ?? null)}
                    </p>
                  </div>
                  {current ? null : (
                    <div className="flex flex-wrap gap-2">
                      <Form method="post" action={here}>
                        <input type="hidden" name="intent" value="restore" />
                        <input type="hidden" name="version" value={v.id} />
                        <Button type="submit" variant="outline">
                          Make this version current
                        </Button>
                      </Form>
                      {v.withdrawnAt === null ? (
                        <Form method="post" action={here}>
                          <input type="hidden" name="intent" value="withdraw-version" />
                          <input type="hidden" name="version" value={v.id} />
                          <Button type="submit" variant="outline">
                            Withdraw this version
                          </Button>
                        </Form>
                      ) : null}
                    </div>
                  )}
                </div>
              </Card>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

/** A version's investor alert, as the admin reads it. */
function alertStatus(progress: AlertProgress | null): string {
  if (!progress) return "No investor alert sent for this version";
  const { sent, total, preparing } = progress;
  return `Investor alert sent to ${formatInteger(sent)} of ${formatInteger(total)} subscriber${total === 1 ? "" : "s"}${preparing ? " (still queuing)" : ""}`;
}
