/**
 * Page forms whose answer is a file (docs/decisions/098). Remix treats a page route's action answer
 * as data for the page, never as the response, so a file must come from a resource route; the
 * worker hands a plain form post to such a page to the resource route beside it, and the page's
 * form posts to the page's own address with or without JavaScript.
 */
const FILE_POSTS: Readonly<Record<string, string>> = {
  "/admin/subscribers/handoff": "/admin/subscribers/handoff/export",
};

/** The resource route's request for a page's file form post, or null for any other request. */
export function filePostRequest(request: Request, url: URL): Request | null {
  const target = FILE_POSTS[url.pathname];
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (!target || request.method !== "POST" || type !== "application/x-www-form-urlencoded") return null;
  // Remix's own data requests (`?_data=`) keep their route.
  if (url.searchParams.has("_data")) return null;
  return new Request(new URL(target, url), request);
}
