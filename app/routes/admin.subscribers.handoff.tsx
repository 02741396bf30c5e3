import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { answerAction, FormAnswer } from "~/components/form-answer";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { BodyError, parseForm, readBody } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import {
  endHandedOff,
  exportAnswer,
  handoffCounts,
  NOBODY_NEW,
  previewHostExport,
  recentHandoffs,
  type ImportResult,
  type Named,
} from "~/features/handoff/handoff.server";
import {
  HANDOFF_FORMATS,
  HANDOFF_SCOPES,
  HOST_NAMES,
  type HandoffFormat,
  type HandoffScope,
} from "~/features/handoff/hosts";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime, formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
import { AdminPage } from "~/components/admin/admin-page";
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
  const nobodyNew = new URL(request.url).searchParams.get("export") === NOBODY_NEW;
  return json({ handoffs, counts, nobodyNew, importMaxBytes: getConfig(env).importMaxBytes }, { headers: NO_STORE });
}

/** The import's form: its answer box holds the preview, whose End answers in the same box. */
const IMPORT_FORM = "import-file";
const END_FORM = "import-end";

/** The action's answer, naming the form it answers (the import's or its End's). */
type ActionData = { form: typeof IMPORT_FORM | typeof END_FORM; import: ImportResult };

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * `POST /admin/subscribers/handoff`, multipart with the `file` a newsletter host exported: the page
 * previews what the import would do (docs/decisions/101): how many rows were read, matched and not
 * known here, whose subscriptions it would end (handed off at or after their confirmation), who
 * subscribed again here since and who matches only by case folding (kept). Its "End N
 * subscriptions" form (multipart too: `intent=end`, `format`, `leads`, the previewed ids) ends
 * them and names them. The page's export form (`format`, `scope`) posts here too: the same answer
 * as `/admin/subscribers/handoff/export`, where the worker hands a browser's post
 * (app/utils/file-posts.ts, docs/decisions/100) so that the file is the response. Cross-site →
 * 403, not an admin → 404; a file that is not a recognised export → 400, over IMPORT_MAX_BYTES →
 * 413, each with the page saying why and nothing changed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const max = getConfig(env).importMaxBytes;
  const refuse = (status: number, reason: string, form: ActionData["form"] = IMPORT_FORM) =>
    json<ActionData>({ form, import: { ok: false, reason } }, { status, headers: NO_STORE });
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
  const db = getDb(env);
  if (form.get("intent") === "end") {
    const refuseEnd = (reason: string) => refuse(400, reason, END_FORM);
    const format = String(form.get("format") ?? "");
    const ids = String(form.get("leads") ?? "")
      .split(",")
      .map(Number)
      .filter((id) => Number.isSafeInteger(id) && id > 0);
    if (!(HANDOFF_FORMATS as readonly string[]).includes(format) || !ids.length)
      return refuseEnd("Nothing to end: import the host's export again to see what it would do.");
    const done = await endHandedOff(db, format as HandoffFormat, ids, admin.email);
    return json<ActionData>({ form: END_FORM, import: done }, { headers: NO_STORE });
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return refuse(400, "Choose the CSV file your newsletter host exported.");
  if (file.size > max) return refuse(413, tooLarge);
  const result = await previewHostExport(db, new Uint8Array(await file.arrayBuffer()));
  return json<ActionData>({ form: IMPORT_FORM, import: result }, { status: result.ok ? 200 : 400, headers: NO_STORE });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

/** A list of addresses the page names: the first ones, then how many more. */
function Addresses({ list, testId }: { list: Named; testId: string }) {
  const more = list.count - list.first.length;
  return (
    <ul className="mt-2 list-disc space-y-0.5 pl-6 text-sm" data-testid={testId}>
      {list.first.map((email) => (
        <li key={email} className="wrap-anywhere">
          {email}
        </li>
      ))}
      {more > 0 ? <li className="list-none text-muted-foreground">and {formatInteger(more)} more</li> : null}
    </ul>
  );
}

const subscriptions = (n: number) => `${formatInteger(n)} ${n === 1 ? "subscription" : "subscriptions"}`;

/**
 * The import's answer box, inside its form above its button (docs/decisions/105-answers-in-view.md):
 * a refusal, the preview with its End button, or what End did. End belongs to its own form (below
 * the import's: forms do not nest) by its `form` attribute, and answers in this same box.
 */
function ImportAnswer({ answer }: { answer: ActionData | undefined }) {
  const result = answer?.import;
  if (!result) return null;
  if (!result.ok)
    return (
      <FormAnswer
        formId={IMPORT_FORM}
        answer={answer}
        className="w-full"
        message={<span data-testid="import-result">{result.reason}</span>}
      />
    );
  const n = formatInteger;
  if (result.step === "done")
    return (
      <FormAnswer formId={IMPORT_FORM} answer={answer} tone="result" className="w-full">
        <div data-testid="import-done">
          <p className="text-sm font-medium" data-testid="import-result">
            {result.ended.count
              ? `Ended ${subscriptions(result.ended.count)} here (${HOST_NAMES[result.format]} export):`
              : "Nothing ended: each of them subscribed again here since the preview."}
          </p>
          {result.ended.count ? <Addresses list={result.ended} testId="import-ended" /> : null}
        </div>
      </FormAnswer>
    );
  return (
    <FormAnswer formId={IMPORT_FORM} answer={answer} tone="result" className="w-full">
      <div className="space-y-3" data-testid="import-preview">
        <p className="text-sm" data-testid="import-result">
          {`${HOST_NAMES[result.format]} export read: ${n(result.read)} ${result.read === 1 ? "row" : "rows"}, ${n(result.matched)} matched, ${n(result.unknown)} not known here. Nothing has changed yet.`}
        </p>
        {result.toEnd.count ? (
          <div>
            <p className="text-sm font-medium">
              {`Left on the host, handed off from here: ${subscriptions(result.toEnd.count)} to end.`}
            </p>
            <Addresses list={result.toEnd} testId="import-to-end" />
          </div>
        ) : (
          <p className="text-sm font-medium">Nothing to end: nobody who left the host was handed off from here.</p>
        )}
        {result.kept.count ? (
          <div>
            <p className="text-sm">
              {`Subscribed again here since (kept): ${n(result.kept.count)} left the host but confirmed here after their last hand-off, or were never handed off.`}
            </p>
            <Addresses list={result.kept} testId="import-kept" />
          </div>
        ) : null}
        {result.folded.count ? (
          <div>
            <p className="text-sm">
              {`Not ended, to check by hand: ${n(result.folded.count)} match an address here only when their non-ASCII letters are case-folded.`}
            </p>
            <Addresses list={result.folded} testId="import-folded" />
          </div>
        ) : null}
        {result.toEnd.count ? (
          <Button type="submit" form={END_FORM} variant="destructive">
            End {subscriptions(result.toEnd.count)}
          </Button>
        ) : null}
      </div>
    </FormAnswer>
  );
}

/** The preview's End: its fields, in a form of its own; its button sits in the import's answer box. */
function EndForm({ result }: { result: ImportResult | undefined }) {
  if (!result?.ok || result.step === "done" || !result.toEnd.count) return null;
  return (
    <Form method="post" encType="multipart/form-data" id={END_FORM} action={answerAction(page.path, IMPORT_FORM)}>
      <input type="hidden" name="intent" value="end" />
      <input type="hidden" name="format" value={result.format} />
      <input type="hidden" name="leads" value={result.endIds.join(",")} />
    </Form>
  );
}

/**
 * With JavaScript, the export is fetched and saved from here, so that the page then reloads its
 * counts and list (a plain post would leave them as they were); without, the browser saves the
 * answer itself. A "new" export with nobody new answers the page's address that says so.
 */
function useExportDownload() {
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setState({ busy: true });
    try {
      const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
      const res = await fetch(form.action, { method: "POST", body });
      const type = res.headers.get("Content-Type") ?? "";
      if (res.ok && type.startsWith("text/csv")) {
        const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "subscribers.csv";
        const url = URL.createObjectURL(await res.blob());
        const link = Object.assign(document.createElement("a"), { href: url, download: name });
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
        setState({ busy: false });
        revalidator.revalidate();
      } else if (res.ok && res.redirected) {
        setState({ busy: false });
        const to = new URL(res.url);
        navigate(`${to.pathname}${to.search}`, { replace: true, preventScrollReset: true });
      } else setState({ busy: false, error: await res.text() });
    } catch {
      setState({ busy: false, error: "The export did not arrive: check the connection and try again." });
    }
  };
  return { ...state, onSubmit };
}

export default function SubscriberHandoff() {
  const { handoffs, counts, nobodyNew, importMaxBytes } = useLoaderData<typeof loader>();
  const download = useExportDownload();
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  return (
    <AdminPage page={page}>
      <Card as="section" className="mt-8" aria-labelledby="export-heading">
        <h2 id="export-heading" className="text-xl font-semibold">
          Export for the newsletter host
        </h2>
        <p className="mt-2 text-sm text-muted-foreground" data-testid="handoff-counts">
          {formatInteger(counts.notYet)} confirmed subscribers not handed off yet, {formatInteger(counts.handedOff)}{" "}
          handed off. Only confirmed newsletter subscribers are exported.
        </p>
        {/* A plain post, not the router's: the browser saves the CSV the answer carries. */}
        <form
          method="post"
          action={page.path}
          id="handoff-export"
          onSubmit={download.onSubmit}
          className="mt-4 flex flex-wrap items-end gap-4"
        >
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
          <Button type="submit" disabled={download.busy}>
            {download.busy ? "Preparing…" : "Download CSV"}
          </Button>
        </form>
        {download.error ? (
          <p role="alert" className="wrap-anywhere mt-4 text-sm text-destructive" data-testid="export-result">
            {download.error}
          </p>
        ) : nobodyNew ? (
          <p role="status" className="mt-4 text-sm font-medium" data-testid="export-result">
            Nobody new since the last hand-off: nothing was downloaded or recorded.
          </p>
        ) : null}
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

      <Card as="section" id="import" className="mt-10" aria-labelledby="import-heading">
        <h2 id="import-heading" className="text-xl font-semibold">
          Import the host&apos;s export
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          The subscriber CSV Substack, Ghost or Buttondown exports (at most {mib(importMaxBytes)}). The page first shows
          what it would do. Then every address handed off from here that unsubscribed or was disabled there ends its
          newsletter subscription here, as our own unsubscribe does: no e-mail is sent, investor alerts stay, nothing
          else changes. Who subscribed again here since their hand-off is kept.
        </p>
        <Form
          method="post"
          encType="multipart/form-data"
          id={IMPORT_FORM}
          action={answerAction(page.path, IMPORT_FORM)}
          className="mt-4 flex flex-wrap items-end gap-4"
        >
          <ImportAnswer answer={actionData} />
          {/* As wide as the card on a phone: a file input's own width is wider than 320 px allows. */}
          <div className="grid w-full min-w-0 gap-1.5 sm:w-auto">
            <label htmlFor="handoff-file" className="text-sm font-medium">
              Subscriber export (CSV)
            </label>
            <input
              id="handoff-file"
              type="file"
              name="file"
              accept=".csv,text/csv"
              required
              className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2 file:text-foreground"
            />
          </div>
          <Button type="submit" variant="outline" disabled={importing}>
            {importing ? "Reading…" : "Import"}
          </Button>
        </Form>
        <EndForm result={actionData?.import} />
      </Card>
    </AdminPage>
  );
}
