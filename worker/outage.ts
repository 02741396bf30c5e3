/**
 * The answer while D1 or R2 fails and no stored page can stand in (docs/decisions/121-outages.md):
 * 503 with Retry-After, never a 500. A browser gets a page in words (what is down, what still
 * works); the JSON API and Remix's data requests get JSON. The page is the worker's own, not a
 * Remix render, whose root loader would need the database that is down.
 */
import { plainPageHtml } from "../app/utils/plain-page";

/** Seconds a client is asked to wait: outages are usually short, and the page is cheap to ask again. */
export const OUTAGE_RETRY_AFTER_S = 30;

export type Outage = "d1" | "r2";

interface Words {
  title: string;
  lead: string;
  works: string[];
}

const STILL_WORKS = [
  "Pages that were opened recently still load as they were.",
  "Signing up for the newsletter or the investor alerts still works: your signup is kept and its confirmation e-mail may take a few minutes.",
];

/** What the page says, by what failed and where the visitor was going. */
function wordsFor(outage: Outage, path: string, method: string): Words {
  if (outage === "r2" && method === "POST")
    return {
      title: "The upload was not stored",
      lead: "Our file storage is not answering, so nothing of this upload was saved and nothing was changed. Please try again in a minute.",
      works: ["Every page of the site still works; the documents already stored are listed as before."],
    };
  if (outage === "r2")
    return {
      title: "This file is briefly unavailable",
      lead: "Our file storage is not answering, so this document or image cannot be sent right now. Nothing is lost: please try again in a minute.",
      works: ["Every page of the site still works, the document library's list included."],
    };
  if (path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin."))
    return {
      title: "The database is unavailable",
      lead: "Admin pages read and change data in the database, which is not answering right now, so this page cannot be shown and nothing was changed. Please try again in a minute.",
      works: STILL_WORKS,
    };
  if (path === "/api/login" || path === "/api/callback" || path === "/api/logout")
    return {
      title: "Sign-in is briefly unavailable",
      lead: "Signing in needs the database, which is not answering right now. Please try again in a minute.",
      works: STILL_WORKS,
    };
  return {
    title: "This page is briefly unavailable",
    lead: "Our database is not answering right now, so this page cannot be shown. Please try again in a minute.",
    works: STILL_WORKS,
  };
}

/** Whether the client reads JSON: the API, Remix's data requests, anything that did not ask for HTML. */
function wantsJson(request: Request, url: URL): boolean {
  if (url.searchParams.has("_data")) return true;
  return !(request.headers.get("Accept") ?? "").includes("text/html");
}

/** The 503: `stylesheet` is the build's inlined stylesheet, which the page reuses (its CSP hash is every page's). */
export function outageResponse(request: Request, url: URL, outage: Outage, stylesheet: string): Response {
  const words = wordsFor(outage, url.pathname, request.method);
  const headers = { "Retry-After": String(OUTAGE_RETRY_AFTER_S), "Cache-Control": "no-store" };
  if (wantsJson(request, url))
    return Response.json({ message: `${words.title}. ${words.lead}` }, { status: 503, headers });
  const html = plainPageHtml(stylesheet, {
    title: words.title,
    paragraphs: [words.lead],
    list: { title: "What still works", items: words.works },
    links: [
      { href: "/", text: "Home" },
      { href: url.pathname, text: "Try again" },
    ],
  });
  return new Response(html, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}
