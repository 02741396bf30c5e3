import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card, cardClass } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { allVentures } from "~/features/ventures/catalogue.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { uploadDocument } from "~/features/documents/admin.server";
import { listForAdmin } from "~/features/documents/catalogue.server";
import { adminDocumentPath, formatBytes, VISIBILITY_LABELS } from "~/features/documents/library";
import { NewDocumentForm } from "~/features/documents/upload-form";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/features/leads/signup-action";

const page = pages.documentLibrary;
const ROUTE_ID = "routes/admin.documents";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [documents, ventures] = await Promise.all([listForAdmin(db), allVentures(db)]);
  return json(
    {
      documents,
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      maxBytes: getConfig(env).documentMaxBytes,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/**
 * `POST /admin/documents`, multipart/form-data with `title`, `description`, `category`, `venture`,
 * `visibility`, `publish`, `alert` and `file` (a browser without JavaScript, a script or the page):
 * a new document. Cross-site → 403, not an admin → 404, before a byte of the body is read.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  return uploadDocument(request, env, context.cloudflare.ctx, admin);
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Location") ? actionHeaders : loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function DocumentLibrary() {
  const { documents, ventures, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>

      <section aria-labelledby="documents-list" className="mt-8">
        <h2 id="documents-list" className="text-xl font-semibold">
          Documents
        </h2>
        {documents.length === 0 ? (
          <p className="mt-3 text-sm text-muted-foreground">No documents yet.</p>
        ) : (
          <div className={cardClass("sm", "mt-3 overflow-x-auto")}>
            <table className="w-full text-left text-sm">
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="p-2">
                    Title
                  </th>
                  <th scope="col" className="p-2">
                    Status
                  </th>
                  <th scope="col" className="p-2">
                    Visibility
                  </th>
                  <th scope="col" className="p-2">
                    Current version
                  </th>
                  <th scope="col" className="p-2">
                    Size
                  </th>
                  <th scope="col" className="p-2">
                    Updated
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Downloads (30 days)
                  </th>
                </tr>
              </thead>
              <tbody>
                {documents.map((d) => (
                  <tr key={d.id} className="border-t border-border" data-testid="document-row" data-id={d.id}>
                    <td className="p-2">
                      <Link to={adminDocumentPath(d.id)} className="font-medium underline underline-offset-4">
                        {d.title}
                      </Link>
                      <div className="text-xs text-muted-foreground">
                        {d.category} ·{" "}
                        {d.ventureId ? (ventures.find((v) => v.id === d.ventureId)?.name ?? d.ventureId) : "The group"}
                      </div>
                    </td>
                    <td className="p-2">{d.status === "published" ? "Published" : "Draft"}</td>
                    <td className="p-2">{VISIBILITY_LABELS[d.visibility]}</td>
                    <td className="p-2 font-mono text-xs">{d.sha256 ? d.sha256.slice(0, 12) : "—"}</td>
                    <td className="p-2">{d.size === null ? "—" : formatBytes(d.size)}</td>
                    <td className="p-2">
                      <time dateTime={new Date(d.updatedAt).toISOString()}>{formatDateTime(d.updatedAt)}</time>
                    </td>
                    <td className="p-2 text-right" data-testid="downloads">
                      {formatInteger(d.downloads)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <Card as="section" padding="lg" aria-labelledby="upload-heading" className="mt-10">
        <h2 id="upload-heading" className="mb-4 text-xl font-semibold">
          Upload a document
        </h2>
        <NewDocumentForm
          action={page.path}
          routeId={ROUTE_ID}
          lastResult={actionData?.result}
          ventures={ventures}
          maxBytes={maxBytes}
        />
      </Card>
    </div>
  );
}
