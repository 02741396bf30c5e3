import { isbot } from "isbot";

/**
 * How a document request is rendered, read in one place so the HTML cache keys on exactly what
 * the render reads (docs/decisions/008-html-cache.md).
 */

/** Crawlers and tools that run no script get the whole document at once, never streamed. */
export function wantsCompleteDocument(request: Request): boolean {
  return isbot(request.headers.get("User-Agent") || "");
}

/**
 * A request made by script (`fetch`, not a navigation) may get slow data streamed after the
 * shell; a navigation, or a client that sends no `Sec-Fetch-Mode` (curl, old browsers, crawlers),
 * gets it in the HTML.
 */
export function acceptsStreamedData(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode !== null && mode !== "navigate";
}
