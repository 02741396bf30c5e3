import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { BodyError, parseForm, readBody } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import {
  exportAnswer,
  handoffCounts,
  importHostExport,
  recentHandoffs,
  type ImportResult,
} from "~/features/handoff/handoff.server";
import { HANDOFF_FORMATS, HANDOFF_SCOPES, HOST_NAMES, type HandoffScope } from "~/features/handoff/hosts";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.subscriberHandoff;
/** The multipart frame around the file: its boundaries and part headers, with room to spare. */
const FRAME_BYTES = 16 * 1024;

const SCOPE_LABELS: Record<HandoffScope, string> = {
  new: "Not handed off before",
  all: "Every confirmed subscriber",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [handoffs, counts] = await Promise.all([recentHandoffs(db), handoffCounts(db)]);
  return json({ handoffs, counts, importMaxBytes: getConfig(env).importMaxBytes }, { headers: NO_STORE });
}

type ActionData = { import: ImportResult };

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * `POST /admin/subscribers/handoff`, multipart with the `file` a newsletter host exported: every
 * address that left there is unsubscribed here (docs/decisions/098); the page says how many rows
 * were read, matched, ended and not known here. The page's export form (`format`, `scope`) posts
 * here too: the same answer as `/admin/subscribers/handoff/export`, where the worker hands a
 * browser's post (app/utils/file-posts.ts, docs/decisions/100) so that the file is the response. Cross-site → 403, not an admin → 404; a file that is not a recognised export →
 * 400, over IMPORT_MAX_BYTES → 413, each with the page saying why and nothing changed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const max = getConfig(env).importMaxBytes;
  const refuse = (status: number, reason: string) =>
    json<ActionData>({ import: { ok: false, reason } }, { status, headers: NO_STORE });
  const tooLarge = `The file is larger than ${mib(max)}, the most this page reads (IMPORT_MAX_BYTES).`;
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  // The export form's post, when it reaches the page itself (a data request, a direct call).
  if (type !== "multipart/form-data") return exportAnswer(request, env, admin.email);
  let form: FormData;
  try {
    // Read up to the limit and no further, whatever Content-Length says (docs/decisions/051).
    const { bytes } = await readBody(request, { maxBytes: max + FRAME_BYTES, accept: ["form"] });
    form = await parseForm(request, bytes);
  } catch (error) {
    if (error instanceof BodyError) return refuse(error.status, error.status === 413 ? tooLarge : error.message);
    throw error;
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return refuse(400, "Choose the CSV file your newsletter host exported.");
  if (file.size > max) return refuse(413, tooLarge);
  const result = await importHostExport(getDb(env), new Uint8Array(await file.arrayBuffer()), admin.email);
  return json<ActionData>({ import: result }, { status: result.ok ? 200 : 400, headers: NO_STORE });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

function ImportOutcome({ result }: { result: ImportResult }) {
  if (!result.ok)
    return (
      <p role="alert" className="wrap-anywhere mt-4 text-sm text-destructive" data-testid="import-result">
        {result.reason}
      </p>
    );
  const n = formatInteger;
  return (
    <p role="status" className="mt-4 text-sm" data-testid="import-result">
      {`${HOST_NAMES[result.format]} export read: ${n(result.read)} ${result.read === 1 ? "row" : "rows"}, ${n(result.matched)} matched, ${n(result.ended)} ended here, ${n(result.unknown)} not known here.`}
    </p>
  );
}

export default function SubscriberHandoff() {
  const { handoffs, counts, importMaxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>

      <Card as="section" className="mt-8" aria-labelledby="export-heading">
        <h2 id="export-heading" className="text-xl font-semibold">
          Export for the newsletter host
        </h2>
        <p className="mt-2 text-sm text-muted-foreground" data-testid="handoff-counts">
          {formatInteger(counts.notYet)} confirmed subscribers not handed off yet, {formatInteger(counts.handedOff)}{" "}
          handed off. Only confirmed newsletter subscribers are exported.
        </p>
        {/* A plain post, not the router's: the browser saves the CSV the answer carries. */}
        <form method="post" action={page.path} className="mt-4 flex flex-wrap items-end gap-4">
          <div className="grid gap-1.5">
            <label htmlFor="handoff-format" className="text-sm font-medium">
              Host
            </label>
            <Select id="handoff-format" name="format" defaultValue="substack">
              {HANDOFF_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {HOST_NAMES[f]}
                </option>
              ))}
            </Select>
          </div>
          <div className="grid gap-1.5">
            <label htmlFor="handoff-scope" className="text-sm font-medium">
              Subscribers
            </label>
            <Select id="handoff-scope" name="scope" defaultValue="new">
              {HANDOFF_SCOPES.map((s) => (
                <option key={s} value={s}>
                  {SCOPE_LABELS[s]}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit">Download CSV</Button>
        </form>
      </Card>

      <section className="mt-10" aria-labelledby="handoffs-heading">
        <h2 id="handoffs-heading" className="text-xl font-semibold">
          Hand-offs
        </h2>
        {handoffs.length === 0 ? (
          <p className="mt-3 text-muted-foreground">No subscribers handed off yet.</p>
        ) : (
          <ul className="mt-4 space-y-3" data-testid="handoff-list">
            {handoffs.map((h) => (
              <li key={h.id}>
                <Card padding="sm" className="flex flex-wrap items-center justify-between gap-3">
                  <p className="min-w-0 wrap-anywhere text-sm">
                    <span className="font-medium">
                      {HOST_NAMES[h.format]}, {h.scope === "new" ? "new subscribers" : "all subscribers"}:{" "}
                      {formatInteger(h.count)}
                    </span>
                    <br />
                    <span className="text-muted-foreground">
                      {formatDateTime(h.at)} by {h.actor}
                    </span>
                  </p>
                  <a
                    href={`${page.path}/${h.id}/consent.csv`}
                    download
                    className="text-sm underline underline-offset-4"
                  >
                    Consent records (CSV)<span className="sr-only"> of hand-off {h.id}</span>
                  </a>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <Card as="section" className="mt-10" aria-labelledby="import-heading">
        <h2 id="import-heading" className="text-xl font-semibold">
          Import the host&apos;s export
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          The subscriber CSV Substack, Ghost or Buttondown exports (at most {mib(importMaxBytes)}). Every address that
          unsubscribed or was disabled there ends its newsletter subscription here, as our own unsubscribe does: no
          e-mail is sent, investor alerts stay, nothing else changes.
        </p>
        <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-4">
          <div className="grid min-w-0 gap-1.5">
            <label htmlFor="handoff-file" className="text-sm font-medium">
              Subscriber export (CSV)
            </label>
            <input
              id="handoff-file"
              type="file"
              name="file"
              accept=".csv,text/csv"
              required
              className="block max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2 file:text-foreground"
            />
          </div>
          <Button type="submit" variant="outline" disabled={importing}>
            {importing ? "Importing…" : "Import"}
          </Button>
        </Form>
        {actionData ? <ImportOutcome result={actionData.import} /> : null}
      </Card>
    </div>
  );
}
