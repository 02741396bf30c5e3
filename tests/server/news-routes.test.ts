// News: the admin's page and its form, the public list, an item's page, the Atom feed and the
// investors' latest news, their loaders and actions called directly without a build. Alerts and
// the cached pages are tests/worker/news.test.ts's.
import { env } from "cloudflare:test";
import { XMLParser } from "fast-xml-parser";
import { beforeEach, describe, expect, it } from "vitest";
import { action as newsForm, loader as newsAdmin } from "~/routes/admin.news";
import { loader as investors } from "~/routes/investors";
import { loader as newsItem } from "~/routes/news.$slug";
import { loader as newsList } from "~/routes/news._index";
import { loader as feed } from "~/routes/news[.]atom";
import { STARTING_VENTURES } from "~/content/ventures";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM news_items"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM rate_limits"),
  ]);
});

const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
const [venture, otherVenture] = STARTING_VENTURES;

interface Draft {
  title: string;
  body?: string;
  venture?: string;
  publish?: boolean;
}

interface Listed {
  id: number;
  slug: string;
  title: string;
}

const fields = (draft: Draft, id?: number): Record<string, string> => ({
  intent: "save",
  ...(id ? { id: String(id) } : {}),
  title: draft.title,
  summary: `Summary of ${draft.title}`,
  body: draft.body ?? `Body of **${draft.title}**.`,
  venture: draft.venture ?? "",
  ...(draft.publish ? { publish: "on" } : {}),
});

/** Saves an item through the admin's form (no alert); its id and slug. */
async function save(admin: string, draft: Draft, id?: number): Promise<{ id: number; slug: string }> {
  const res = asResponse(await callRoute(newsForm, { path: "/admin/news", form: fields(draft, id), cookie: admin }));
  expect(res.status, await res.clone().text()).toBe(303);
  const saved = Number(new URL(res.headers.get("Location") ?? "", ORIGIN).searchParams.get("edit"));
  const row = await env.DB.prepare("SELECT slug FROM news_items WHERE id = ?").bind(saved).first<{ slug: string }>();
  return { id: saved, slug: row?.slug ?? "" };
}

const newsCount = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM news_items").first<{ n: number }>())?.n ?? 0;

const titles = async (answer: unknown) =>
  (await asResponse(answer).json<{ items: Listed[] }>()).items.map((i) => i.title);

describe("/admin/news", () => {
  it("is the not-found page for a visitor and a member, and its form refuses them and a cross-site POST", async () => {
    const member = await signedIn("member@example.com");
    const admin = await signedIn(ADMIN);
    expect(asResponse(await callRoute(newsAdmin, { path: "/admin/news" })).status).toBe(404);
    expect(asResponse(await callRoute(newsAdmin, { path: "/admin/news", cookie: member })).status).toBe(404);
    const page = asResponse(await callRoute(newsAdmin, { path: "/admin/news", cookie: admin }));
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await page.json()).toMatchObject({ items: [], editing: null });
    const attempt = fields({ title: "Nope", publish: true });
    expect(asResponse(await callRoute(newsForm, { path: "/admin/news", form: attempt })).status).toBe(404);
    expect(asResponse(await callRoute(newsForm, { path: "/admin/news", form: attempt, cookie: member })).status).toBe(
      404,
    );
    const cross = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: attempt, cookie: admin, headers: CROSS_SITE }),
    );
    expect(cross.status).toBe(403);
    expect(await newsCount()).toBe(0);
  });

  it("bad input is a 400 with the field's message; a preview renders the body; neither stores anything", async () => {
    const admin = await signedIn(ADMIN);
    const bad = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: { ...fields({ title: "x" }), title: "" }, cookie: admin }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Please enter a title.");
    const preview = asResponse(
      await callRoute(newsForm, {
        path: "/admin/news",
        form: { intent: "preview", title: "", summary: "", body: "Hello **there** <script>x</script>" },
        cookie: admin,
      }),
    );
    expect(preview.status).toBe(200);
    const { preview: html } = await preview.json<{ preview: string }>();
    expect(html).toContain("<strong>there</strong>");
    expect(html).not.toContain("<script>");
    const unknown = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: { intent: "nope" }, cookie: admin }),
    );
    expect(unknown.status).toBe(400);
    expect(await newsCount()).toBe(0);
  });

  it("a published item is listed at /news and its venture's, has its page; a draft stays out of both", async () => {
    if (!venture || !otherVenture) throw new Error("two ventures expected");
    const admin = await signedIn(ADMIN);
    const out = await save(admin, { title: "Venture milestone", venture: venture.id, publish: true });
    const draft = await save(admin, { title: "Still a draft" });
    expect(out.slug).toBe("venture-milestone");

    const editing = await asResponse(
      await callRoute(newsAdmin, { path: `/admin/news?edit=${out.id}`, cookie: admin }),
    ).json<{ items: Listed[]; editing: { title: string }; editingPreview: string }>();
    expect(editing.items.map((i) => i.title).sort()).toEqual(["Still a draft", "Venture milestone"]);
    expect(editing.editing.title).toBe("Venture milestone");
    expect(editing.editingPreview).toContain("<strong>Venture milestone</strong>");

    expect(await titles(await callRoute(newsList, { path: "/news" }))).toEqual(["Venture milestone"]);
    const mine = await asResponse(await callRoute(newsList, { path: `/news?venture=${venture.id}` })).json<{
      items: Listed[];
      venture: { id: string };
    }>();
    expect([mine.venture.id, mine.items.map((i) => i.title)]).toEqual([venture.id, ["Venture milestone"]]);
    expect(await titles(await callRoute(newsList, { path: `/news?venture=${otherVenture.id}` }))).toEqual([]);
    expect(asResponse(await callRoute(newsList, { path: "/news?venture=nope" })).status).toBe(404);

    const page = asResponse(await callRoute(newsItem, { path: `/news/${out.slug}`, params: { slug: out.slug } }));
    expect(page.status).toBe(200);
    const { item } = await page.json<{ item: { title: string; html: string; body?: string } }>();
    expect(item.title).toBe("Venture milestone");
    expect(item.html).toContain("<strong>Venture milestone</strong>");
    expect(item).not.toHaveProperty("body");
    const hidden = asResponse(await callRoute(newsItem, { path: `/news/${draft.slug}`, params: { slug: draft.slug } }));
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ item: null });
  });

  it("a long title's slug (past D1's 50-byte LIKE patterns) saves, and its twin gets -2", async () => {
    const admin = await signedIn(ADMIN);
    const title = `Konzernabschlussbestaetigungsvermerk ${"x".repeat(60)} annual report`;
    const first = await save(admin, { title });
    const twin = await save(admin, { title });
    expect(first.slug.length).toBeGreaterThan(50);
    expect(twin.slug).toBe(`${first.slug}-2`);
  });

  it("a draft has no page until published; unpublishing takes it down, deleting removes it; each audited", async () => {
    const admin = await signedIn(ADMIN);
    const { id, slug } = await save(admin, { title: "Short lived" });
    const itemPage = async () =>
      asResponse(await callRoute(newsItem, { path: `/news/${slug}`, params: { slug } })).status;
    expect(await itemPage()).toBe(404);
    expect(await save(admin, { title: "Short lived, now out", publish: true }, id)).toEqual({ id, slug });
    expect(await itemPage()).toBe(200);
    const off = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: { intent: "unpublish", id: String(id) }, cookie: admin }),
    );
    expect([off.status, off.headers.get("Location")]).toEqual([303, `/admin/news?edit=${id}`]);
    expect(await itemPage()).toBe(404);
    const deleted = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: { intent: "delete", id: String(id) }, cookie: admin }),
    );
    expect(deleted.status).toBe(303);
    expect(await newsCount()).toBe(0);
    const again = asResponse(
      await callRoute(newsForm, { path: "/admin/news", form: { intent: "delete", id: String(id) }, cookie: admin }),
    );
    expect(again.status).toBe(404);
    const audit = await env.DB.prepare("SELECT action, actor FROM audit_log ORDER BY id").all();
    expect(audit.results).toEqual(
      ["news.create", "news.publish", "news.unpublish", "news.delete"].map((action) => ({ action, actor: ADMIN })),
    );
  });
});

describe("raw HTML in a body is text everywhere it is shown", () => {
  // marked reads the rest of a paragraph raw after an unclosed inline <kbd>, <code>, <pre> or
  // <script>; each family, nested, at a paragraph's end, and attributes separated by `/`.
  const RAW_BODIES = [
    'Press <kbd> to continue <meta http-equiv="refresh" content="3;url=https://evil.example"> <img src=x onerror=alert(1)>',
    ...["kbd", "code", "pre", "script"].map((tag) => `Open <${tag}> then <img/src=x/onerror=alert(1)> and <b>bold</b>`),
    "Nested <kbd><code><pre><script> inside <iframe/src=https://evil.example></iframe>",
    'Ends with <code>\n\nNext paragraph <img/src=x/onerror=alert(2)> <a/href="javascript:alert(3)">x</a>',
    "Closed <kbd>k</kbd> then <svg/onload=alert(4)>",
  ];
  const body = RAW_BODIES.join("\n\n");
  /** The element names the HTML makes live: only paragraphs and the autolinks of bare addresses. */
  const liveTags = (html: string) =>
    new Set([...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]?.toLowerCase()));
  const expectOnlyText = (html: string) => {
    expect([...liveTags(html)].filter((tag) => tag !== "p" && tag !== "a")).toEqual([]);
    for (const [, href] of html.matchAll(/<a href="([^"]*)"/g)) expect(href).toMatch(/^https:\/\/evil\.example/);
    for (const shown of ["&lt;meta", "&lt;img/src=x/onerror=alert(1)", "&lt;svg/onload", "&lt;iframe/src", "&lt;kbd"])
      expect(html).toContain(shown);
  };

  it("in the item's page, the admin's preview and the Atom feed", async () => {
    const admin = await signedIn(ADMIN);
    const { slug } = await save(admin, { title: "Raw mode", body, publish: true });
    const page = asResponse(await callRoute(newsItem, { path: `/news/${slug}`, params: { slug } }));
    expectOnlyText((await page.json<{ item: { html: string } }>()).item.html);

    const preview = asResponse(
      await callRoute(newsForm, {
        path: "/admin/news",
        form: { intent: "preview", title: "", summary: "", body },
        cookie: admin,
      }),
    );
    expectOnlyText((await preview.json<{ preview: string }>()).preview);

    const xml = await asResponse(await callRoute(feed, { path: "/news.atom" })).text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(xml, true) as {
      feed: { entry: { content: { "#text": string } } | { content: { "#text": string } }[] };
    };
    const [entry] = [doc.feed.entry].flat();
    expectOnlyText(entry?.content["#text"] ?? "");
  });
});

describe("the feed and the investors' page", () => {
  it("/news.atom is Atom with the published items, one feed per venture, and a 304 for a current copy", async () => {
    if (!venture) throw new Error("a venture expected");
    const admin = await signedIn(ADMIN);
    await save(admin, { title: "Feed <item> & more", body: "A *feed* body.", publish: true });
    await save(admin, { title: "Venture only", venture: venture.id, publish: true });
    await save(admin, { title: "Not yet" });
    const res = asResponse(await callRoute(feed, { path: "/news.atom" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await res.text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(xml, true) as {
      feed: { id: string; entry: { title: { "#text": string }; content: { "#text": string } }[] };
    };
    expect(doc.feed.id).toBe(`${ORIGIN}/news.atom`);
    expect(doc.feed.entry.map((e) => e.title["#text"]).sort()).toEqual(["Feed <item> & more", "Venture only"]);
    expect(doc.feed.entry.find((e) => e.title["#text"] === "Feed <item> & more")?.content["#text"]).toContain(
      "<em>feed</em>",
    );

    const etag = res.headers.get("ETag");
    expect(etag).toBeTruthy();
    const current = asResponse(await callRoute(feed, { path: "/news.atom", headers: { "If-None-Match": etag ?? "" } }));
    expect(current.status).toBe(304);
    const since = res.headers.get("Last-Modified") ?? "";
    expect(
      asResponse(await callRoute(feed, { path: "/news.atom", headers: { "If-Modified-Since": since } })).status,
    ).toBe(304);
    const stale = asResponse(await callRoute(feed, { path: "/news.atom", headers: { "If-None-Match": '"stale"' } }));
    expect(stale.status).toBe(200);

    const one = await asResponse(await callRoute(feed, { path: `/news.atom?venture=${venture.id}` })).text();
    expect(one).toContain("Venture only");
    expect(one).not.toContain("Feed &lt;item&gt;");
    expect(asResponse(await callRoute(feed, { path: "/news.atom?venture=nope" })).status).toBe(404);
  });

  it("an entry's links are absolute (a path gets the site, a fragment the entry); an empty venture feed is dated by the last change", async () => {
    if (!venture || !otherVenture) throw new Error("two ventures expected");
    const admin = await signedIn(ADMIN);
    const item = await save(admin, {
      title: "Links inside",
      body: "See [the report](/documents?subsidiary=x), [below](#more) and [elsewhere](https://example.org/a).",
      venture: venture.id,
      publish: true,
    });
    const xml = await asResponse(await callRoute(feed, { path: "/news.atom" })).text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(xml, true) as {
      feed: { updated: string; entry: { content: { "#text": string } } };
    };
    const html = doc.feed.entry.content["#text"];
    expect(html).toContain(`<a href="${ORIGIN}/documents?subsidiary=x">`);
    expect(html).toContain(`<a href="${ORIGIN}/news/${item.slug}#more">`);
    expect(html).toContain('<a href="https://example.org/a"');
    expect(html).not.toMatch(/href="\/(?!\/)/);
    // Another venture has no news: its feed's `updated` is the news' last change, not 1970.
    const empty = new XMLParser().parse(
      await asResponse(await callRoute(feed, { path: `/news.atom?venture=${otherVenture.id}` })).text(),
    ) as { feed: { updated: string; entry?: unknown } };
    expect(empty.feed.entry).toBeUndefined();
    expect(empty.feed.updated).toBe(doc.feed.updated);
    expect(Date.parse(empty.feed.updated)).toBeGreaterThan(Date.UTC(2026, 0, 1));
  });

  it("/investors' loader returns the three newest published items, newest first", async () => {
    const admin = await signedIn(ADMIN);
    for (const n of [1, 2, 3, 4]) await save(admin, { title: `Milestone ${n}`, publish: true });
    await save(admin, { title: "A draft" });
    const { news } = await asResponse(await callRoute(investors, { path: "/investors" })).json<{ news: Listed[] }>();
    expect(news.map((i) => i.title)).toEqual(["Milestone 4", "Milestone 3", "Milestone 2"]);
  });
});
