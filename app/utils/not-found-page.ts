/**
 * The not-found page for a refusal a browser navigated to. A resource route (the leads CSV, the
 * person export) answers a script with JSON, but a person who opens its address signed out should
 * see the same not-found page as for an admin page: its guard marks the 404 with this header, and
 * the worker renders the not-found page in its place, through the catch-all route under PREFIX.
 */
export const NOT_FOUND_PAGE_HEADER = "X-Not-Found-Page";
const PREFIX = "/__not-found";

/** Whether the request is a browser's navigation to a page (Fetch Metadata, else its Accept). */
export function isNavigation(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode ? mode === "navigate" : /\btext\/html\b/.test(request.headers.get("Accept") ?? "");
}

/** The catch-all route's request for `url`'s not-found page: a GET with the navigation's headers. */
export const notFoundPageRequest = (request: Request, url: URL) =>
  new Request(new URL(`${PREFIX}${url.pathname}`, url), { headers: request.headers });

/** The path the visitor opened, for a path the worker rewrote (others as they are). */
export const attemptedPath = (pathname: string) => pathname.replace(new RegExp(`^${PREFIX}(?=/)`), "");
