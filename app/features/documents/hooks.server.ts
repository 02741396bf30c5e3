/**
 * What happens when a document becomes public knowledge: with the admin's "e-mail investor-alert
 * subscribers" choice (`alert`), one investor alert per published version (docs/decisions/075).
 */
import { type DocumentVisibility } from "~/db/enums";
import { publishAlert } from "~/features/alerts/alerts.server";
import { getConfig } from "~/utils/config.server";
import { log } from "~/utils/log.server";

export interface PublishedDocument {
  id: string;
  title: string;
  description: string;
  /** The stable URL's path. */
  path: string;
  visibility: DocumentVisibility;
  /** The venture it belongs to (a catalogue id), null for the group: whom its alert reaches. */
  ventureId: string | null;
  /** The published version's SHA-256: an alert is per version, so a new file is news again. */
  sha256: string;
  /** The admin asked for the investor-alert e-mail ("alert" checkbox). */
  alert: boolean;
  /** A new version of a document published before: its alert says it is an update. */
  update?: boolean;
}

/** What became of the alert the admin asked for (or did not). */
export type AlertOutcome = "not-asked" | "started" | "already" | "members-only" | "failed";

/** The admin's toast, for each outcome of an alert asked for. */
export const ALERT_OUTCOMES: Record<Exclude<AlertOutcome, "not-asked">, string> = {
  started: "Investor alerts are going out to the subscribers.",
  already: "This version's investor alert went out before: nobody is mailed twice.",
  "members-only": "No investor alert was sent: the document is for members only.",
  failed: "The investor alert could not be started; the document is published.",
};

/**
 * Called once each time an upload or a new version leaves a document published, after the
 * catalogue holds it. The alert's key is the document and its version, so pressing publish twice
 * or withdrawing and publishing the same file again mails nobody twice. A members-only document is
 * not announced: its link would answer a subscriber who is not a member as an unknown path.
 */
export async function onDocumentPublished(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  document: PublishedDocument,
): Promise<AlertOutcome> {
  if (!document.alert) return "not-asked";
  if (document.visibility !== "public") {
    log("info", "[documents] no investor alert for a document not public", { document: document.id });
    return "members-only";
  }
  const { title, description, update } = document;
  try {
    const started = await publishAlert(env, ctx, {
      kind: "document",
      id: documentAlertId(document.id, document.sha256),
      title: update ? `Updated: ${title}` : title,
      summary: update
        ? `A new version of “${title}” is published.${description ? ` ${description}` : ""}`
        : description || `A new document from the group: ${title}.`,
      url: new URL(document.path, getConfig(env).siteUrl).href,
      venture: document.ventureId,
    });
    return started ? "started" : "already";
  } catch (error) {
    // The document is published either way; the alert is the part that failed, and says so.
    log("error", "[documents] investor alert not started", { document: document.id, error });
    return "failed";
  }
}

/** One version's alert: keyed by the document and the version's bytes. */
export const documentAlertId = (id: string, sha256: string) => `${id}:${sha256}`;
