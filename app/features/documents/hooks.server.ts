/**
 * What happens when a document becomes public knowledge. Today: nothing. The investor alerts
 * (issue 45) wire `onDocumentPublished` to the mail outbox; the upload and new-version forms
 * already pass the admin's "e-mail investor-alert subscribers" choice (`alert`) through it.
 */

export interface PublishedDocument {
  id: string;
  title: string;
  /** The stable URL's path. */
  path: string;
  visibility: "public" | "members";
  /** The admin asked for the investor-alert e-mail ("alert" checkbox). */
  alert: boolean;
}

/**
 * Called once each time an upload or a new version leaves a document published, after the
 * catalogue holds it. A no-op that returns nothing until the investor alerts wire it up.
 */
export function onDocumentPublished(_env: Env, _document: PublishedDocument): void {}
