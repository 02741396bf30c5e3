/**
 * What happens when a document becomes public knowledge: with the admin's "e-mail investor-alert
 * subscribers" choice (`alert`), one investor alert per published version (docs/decisions/075).
 */
import { publishAlert } from "~/features/alerts/alerts.server";
import { getConfig } from "~/utils/config.server";
import { log } from "~/utils/log.server";

export interface PublishedDocument {
  id: string;
  title: string;
  description: string;
  /** The stable URL's path. */
  path: string;
  visibility: "public" | "members";
  /** The venture it belongs to (a catalogue id), null for the group: whom its alert reaches. */
  ventureId: string | null;
  /** The published version's SHA-256: an alert is per version, so a new file is news again. */
  sha256: string;
  /** The admin asked for the investor-alert e-mail ("alert" checkbox). */
  alert: boolean;
}

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
): Promise<void> {
  if (!document.alert) return;
  if (document.visibility !== "public") {
    log("info", "[documents] no investor alert for a members-only document", { document: document.id });
    return;
  }
  try {
    await publishAlert(env, ctx, {
      kind: "document",
      id: `${document.id}:${document.sha256}`,
      title: document.title,
      summary: document.description || `A new document from the group: ${document.title}.`,
      url: new URL(document.path, getConfig(env).siteUrl).href,
      venture: document.ventureId,
    });
  } catch (error) {
    // The document is published either way; the alert is the part that failed, and says so.
    log("error", "[documents] investor alert not started", { document: document.id, error });
  }
}
