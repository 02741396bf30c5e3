import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card, cardClass } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { allVentures } from "~/features/ventures/catalogue.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { uploadDocument } from "~/features/documents/admin.server";
import { listForAdmin } from "~/features/documents/catalogue.server";
import {
  adminDocumentPath,
  documentStatus,
  formatBytes,
  versionLabel,
  VISIBILITY_LABELS,
} from "~/features/documents/library";
import { alertProgress } from "~/features/alerts/alerts.server";
import { documentAlertId } from "~/features/documents/hooks.server";
import { NewDocumentForm } from "~/features/documents/upload-form";
import { DOCUMENT_FORMS } from "~/features/documents/forms";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
import { AdminPage } from "~/components/admin/admin-page";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.documentLibrary;
const ROUTE_ID = "routes/admin.documents";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [listed, ventures] = await Promise.all([listForAdmin(db), allVentures(db)]);
  const alertOf = (d: (typeof listed)[number]) => (d.sha256 ? documentAlertId(d.id, d.sha256) : "");
  const progress = await alertProgress(db, "document", listed.map(alertOf).filter(Boolean));
  // Each document's investor alert for its current version, or null: none was sent for it.
  const documents = listed.map((d) => ({ ...d, alert: progress.get(alertOf(d)) ?? null }));
  return json(
    {
      documents,
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      maxBytes: getConfig(env).documentMaxBytes,
    },
    { headers: NO_STORE },
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

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

/** "v3 · Nov 28, 2026": the current version by number and day, never by hash. */
const current = (d: { versionNumber: number; versionUploadedAt: number | null }) =>
  d.versionUploadedAt === null ? "—" : versionLabel(d.versionNumber, d.versionUploadedAt);

export default function DocumentLibrary() {
  const { documents, ventures, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AdminPage page={page}>
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
                  <th scope="col" className="hidden p-2 sm:table-cell">
                    Status
                  </th>
                  <th scope="col" className="hidden p-2 sm:table-cell">
                    Visibility
                  </th>
                  <th scope="col" className="hidden p-2 sm:table-cell">
                    Current version
                  </th>
                  <th scope="col" className="hidden p-2 sm:table-cell">
                    Size
                  </th>
                  <th scope="col" className="hidden p-2 sm:table-cell">
                    Updated
                  </th>
                  <th scope="col" className="hidden p-2 text-right sm:table-cell">
                    Downloads (30 days)
                  </th>
                </tr>
              </thead>
              <tbody>
                {documents.map((d) => (
                  <tr key={d.id} className="border-t border-border" data-testid="document-row" data-id={d.id}>
                    <td className="p-2 [overflow-wrap:anywhere]">
                      <Link to={adminDocumentPath(d.id)} className="font-medium underline underline-offset-4">
                        {d.title}
                      </Link>
                      <div className="text-xs text-muted-foreground">
                        {d.category} ·{" "}
                        {d.ventureId ? (ventures.find((v) => v.id === d.ventureId)?.name ?? d.ventureId) : "The group"}
                      </div>
                      {/* On a phone the other columns are hidden: the same facts, as lines under the title. */}
                      <dl
                        className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 text-xs sm:hidden"
                        data-testid="document-facts"
                      >
                        <dt className="text-muted-foreground">Status</dt>
                        <dd>
                          {documentStatus(d)} · {VISIBILITY_LABELS[d.visibility]}
                        </dd>
                        <dt className="text-muted-foreground">Current version</dt>
                        <dd>{current(d)}</dd>
                        <dt className="text-muted-foreground">Size</dt>
                        <dd>{d.size === null ? "—" : formatBytes(d.size)}</dd>
                        <dt className="text-muted-foreground">Updated</dt>
                        <dd>{formatDateTime(d.updatedAt)}</dd>
                        <dt className="text-muted-foreground">Downloads (30 days)</dt>
                        <dd>{formatInteger(d.downloads)}</dd>
                      </dl>
                    </td>
                    <td className="hidden p-2 sm:table-cell">
                      {documentStatus(d)}
                      <div className="text-xs text-muted-foreground" data-testid="alert-status">
                        {d.alert
                          ? `Alert sent to ${formatInteger(d.alert.sent)} of ${formatInteger(d.alert.total)}${d.alert.preparing ? " (queuing)" : ""}`
                          : "No alert"}
                      </div>
                    </td>
                    <td className="hidden p-2 sm:table-cell">{VISIBILITY_LABELS[d.visibility]}</td>
                    <td className="hidden p-2 sm:table-cell" data-testid="current-version">
                      {current(d)}
                    </td>
                    <td className="hidden p-2 sm:table-cell">{d.size === null ? "—" : formatBytes(d.size)}</td>
                    <td className="hidden p-2 sm:table-cell">
                      <time dateTime={new Date(d.updatedAt).toISOString()}>{formatDateTime(d.updatedAt)}</time>
                    </td>
                    <td className="hidden p-2 text-right sm:table-cell" data-testid="downloads">
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
          lastResult={actionData?.form === DOCUMENT_FORMS.upload ? actionData.result : undefined}
          ventures={ventures}
          maxBytes={maxBytes}
        />
      </Card>
    </AdminPage>
  );
}
