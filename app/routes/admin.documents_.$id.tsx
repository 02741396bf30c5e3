import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { allVentures } from "~/features/ventures/catalogue.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { changeDocument, uploadVersion } from "~/features/documents/admin.server";
import { documentWithVersions } from "~/features/documents/catalogue.server";
import { documentFieldsSchema } from "~/features/documents/forms";
import { formatBytes, versionPath, VISIBILITY_LABELS } from "~/features/documents/library";
import { DocumentFields, NewVersionForm } from "~/features/documents/upload-form";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/features/leads/signup-action";

const NO_STORE = { "Cache-Control": "private, no-store" };
const ROUTE_ID = "routes/admin.documents_.$id";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [found, ventures] = await Promise.all([documentWithVersions(db, params.id ?? ""), allVentures(db)]);
  if (!found) throw new Response("Not Found", { status: 404, headers: NO_STORE });
  return json(
    {
      ...found,
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

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Location") ? actionHeaders : loaderHeaders;

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
  const { document: doc, versions, maxBytes, ventures } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const here = `${pages.documentLibrary.path}/${doc.id}`;
  const editResult =
    actionData && "result" in actionData && navigation.state === "idle" ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "edit-document",
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
  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 pt-10">
      <p className="text-sm">
        <Link to={pages.documentLibrary.path} className="underline underline-offset-4">
          ← {pages.documentLibrary.title}
        </Link>
      </p>
      <header className="mt-4">
        <h1 className="text-3xl font-bold tracking-tight">{doc.title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          <span data-testid="status">{published ? "Published" : "Draft"}</span> · {VISIBILITY_LABELS[doc.visibility]} ·{" "}
          Stable URL:{" "}
          <a href={doc.path} className="break-all underline underline-offset-4">
            {doc.path}
          </a>
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Form method="post" action={here}>
            <input type="hidden" name="intent" value={published ? "unpublish" : "publish"} />
            <Button type="submit" variant={published ? "outline" : "primary"}>
              {published ? "Unpublish" : "Publish"}
            </Button>
            {published ? null : (
              <label className="ml-3 inline-flex items-center gap-2 text-sm">
                <input type="checkbox" name="alert" />
                E-mail investor-alert subscribers
              </label>
            )}
          </Form>
          <Form
            method="post"
            action={here}
            onSubmit={(e) => {
              if (!window.confirm(`Delete “${doc.title}” and every version of it?`)) e.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <Button type="submit" variant="destructive">
              Delete
            </Button>
          </Form>
        </div>
      </header>

      <Card as="section" padding="lg" aria-labelledby="edit-heading" className="mt-8">
        <h2 id="edit-heading" className="mb-4 text-xl font-semibold">
          Details
        </h2>
        <Form method="post" action={here} {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value="edit" />
          <DocumentFields fields={fields} ventures={ventures} />
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
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          maxBytes={maxBytes}
        />
      </Card>

      <section aria-labelledby="versions-heading" className="mt-8">
        <h2 id="versions-heading" className="text-xl font-semibold">
          Versions
        </h2>
        <ol className="mt-3 grid gap-3">
          {versions.map((v) => {
            const current = v.id === doc.currentVersionId;
            return (
              <Card as="li" padding="md" key={v.id} data-testid="version" data-current={current || undefined}>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="min-w-0 text-sm">
                    <a href={versionPath(v.sha256)} className="break-all font-medium underline underline-offset-4">
                      {v.fileName}
                    </a>
                    <p className="text-muted-foreground">
                      <time dateTime={new Date(v.uploadedAt).toISOString()}>{formatDateTime(v.uploadedAt)}</time> ·{" "}
                      {formatBytes(v.size)} · {v.uploadedBy}
                      {current ? " · current" : ""}
                    </p>
                  </div>
                  {current ? null : (
                    <Form method="post" action={here}>
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="version" value={v.id} />
                      <Button type="submit" variant="outline">
                        Make this version current
                      </Button>
                    </Form>
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
