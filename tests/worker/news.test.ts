// News and investor alerts end to end in workerd (issue 45): the admin page for admins alone,
// hostile Markdown rendered inert, the public pages and the Atom feed, and the alerts: one mail
// per subscriber and item through the outbox, none to a newsletter-only subscriber, and none
// after the alert's own one-click unsubscribe.
import { env, SELF } from "cloudflare:test";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { alertMailKind, fanOutAlerts } from "~/features/alerts/alerts.server";
import { listMail, waitForMail, type InboxMail } from "../fixtures/inbox";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { insertLeads, postForm } from "./leads-helpers";

const inbox = inject("inboxURL");
const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("news-member@example.com")).jar;
});

const post = (path: string | URL, body: Record<string, string>, jar?: Jar, headers: Record<string, string> = {}) =>
  SELF.fetch(new URL(path, ORIGIN), {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      ...(jar ? { Cookie: jar.header() } : {}),
      ...headers,
    },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });

const html = (path: string, jar?: Jar) =>
  get(path, jar, { headers: { Accept: "text/html" } }).then(async (res) => ({ res, body: await res.text() }));

interface Draft {
  title: string;
  summary?: string;
  body?: string;
  venture?: string;
  publish?: boolean;
  alert?: boolean;
}

/** Saves an item as the admin; returns its id. */
async function save(draft: Draft, id?: number): Promise<number> {
  const res = await post(
    "/admin/news",
    {
      intent: "save",
      ...(id ? { id: String(id) } : {}),
      title: draft.title,
      summary: draft.summary ?? `Summary of ${draft.title}`,
      body: draft.body ?? `Body of **${draft.title}**.`,
      venture: draft.venture ?? "",
      ...(draft.publish ? { publish: "on" } : {}),
      ...(draft.alert ? { alert: "on" } : {}),
    },
    admin,
  );
  expect(res.status, await res.clone().text()).toBe(303);
  return Number(new URL(res.headers.get("Location")!, ORIGIN).searchParams.get("edit"));
}

const slugOf = async (id: number) =>
  (await env.DB.prepare("SELECT slug FROM news_items WHERE id = ?").bind(id).first<{ slug: string }>())!.slug;

describe("/admin/news", () => {
  it("is the not-found page for anyone but an admin, and its form refuses them too", async () => {
    expect((await html("/admin/news")).res.status).toBe(404);
    expect((await html("/admin/news", member)).res.status).toBe(404);
    expect((await html("/admin/news", admin)).res.status).toBe(200);
    const attempt = { intent: "save", title: "Nope", summary: "Nope", body: "Nope", publish: "on" };
    expect((await post("/admin/news", attempt, member)).status).toBe(404);
    expect((await post("/admin/news", attempt)).status).toBe(404);
    expect((await post("/admin/news", attempt, admin, { Origin: "https://evil.example" })).status).toBe(403);
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM news_items WHERE title = 'Nope'").first<{
      n: number;
    }>())!;
    expect(n).toBe(0);
  });

  it("answers bad input with 400 and the form's errors, storing nothing", async () => {
    const res = await post("/admin/news", { intent: "save", title: "", summary: "x".repeat(301), body: "b" }, admin);
    expect(res.status).toBe(400);
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM news_items").first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("renders hostile Markdown inert, on the page, in the preview and in the feed", async () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src="https://evil.example/x.png" onerror="alert(2)">',
      "[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:x)",
      "![tracker](https://evil.example/pixel.gif)",
      "<a href='https://evil.example' style='color:red'>raw</a>",
      "[far](//evil.example/path) [ok](https://example.com/ok) [mail](mailto:ir@example.com) [here](/investors)",
      "| a | b |\n|:--|--:|\n| 1 | 2 |",
      // marked's raw mode after an unclosed inline tag, and attributes separated by `/`.
      'Press <kbd> to continue <meta http-equiv="refresh" content="3;url=https://evil.example"> <img/src=x/onerror=alert(5)>',
      "Ends with <script>",
    ].join("\n\n");
    const id = await save({ title: "Hostile body", body: hostile, publish: true });
    const { body: page, res } = await html(`/news/${await slugOf(id)}`);
    expect(res.status).toBe(200);
    const article = page.slice(page.indexOf('class="news-body'), page.indexOf("</article>"));
    // No element but Markdown's own, none with a handler or a style; hostile text stays text.
    expect(article).not.toMatch(/<(script|img|iframe|style|object|embed|meta)\b/i);
    expect(article).toContain("&lt;img/src=x/onerror=alert(5)&gt;");
    expect(article).not.toMatch(/<[a-z][^>]*\s(on\w+|style)=/i);
    expect(article).not.toMatch(/href="(javascript|data|vbscript):/i);
    expect(article).not.toContain('href="//evil.example');
    expect(article).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(article).toContain('href="https://example.com/ok"');
    expect(article).toContain('href="mailto:ir@example.com"');
    expect(article).toContain('href="/investors"');
    expect(article).toContain("tracker");

    // The live preview's request (data), and the Preview button without JavaScript (the page).
    const fields = { intent: "preview", title: "", summary: "", body: hostile };
    const preview = await post("/admin/news?_data=routes%2Fadmin.news", fields, admin);
    expect(preview.status).toBe(200);
    const { preview: previewHtml } = (await preview.json()) as { preview: string };
    expect(previewHtml).not.toMatch(/<(script|img|meta)\b|<[a-z][^>]*\s(on\w+|style)=|href="javascript:/i);
    expect(previewHtml).toContain('href="https://example.com/ok"');
    const noJs = await post("/admin/news", fields, admin);
    expect(noJs.status).toBe(200);
    expect(await noJs.text()).toContain(previewHtml);

    // The feed's HTML content: the same text, no live element.
    const feed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(
      await (await get("/news.atom")).text(),
      true,
    ) as { feed: { entry: unknown } };
    const entry = ([feed.feed.entry].flat() as { title: { "#text": string }; content: { "#text": string } }[]).find(
      (e) => e.title["#text"] === "Hostile body",
    );
    const content = entry?.content["#text"] ?? "";
    expect(content).toContain("&lt;img/src=x/onerror=alert(5)&gt;");
    expect(content).not.toMatch(/<(script|img|iframe|meta)\b|<[a-z][^>]*\s(on\w+|style)=|href="javascript:/i);

    const audit = await env.DB.prepare("SELECT action, actor FROM audit_log WHERE action LIKE 'news.%'").all();
    expect(audit.results).toContainEqual({ action: "news.publish", actor: "admin@example.com" });
  });

  it("edits, unpublishes and deletes, each audited; a draft is never public", async () => {
    const id = await save({ title: "Draft first" });
    const slug = await slugOf(id);
    expect((await html(`/news/${slug}`)).res.status).toBe(404);
    await save({ title: "Draft first, now out", publish: true }, id);
    expect((await html(`/news/${slug}`)).body).toContain("Draft first, now out");
    expect((await post("/admin/news", { intent: "unpublish", id: String(id) }, admin)).status).toBe(303);
    expect((await html(`/news/${slug}`)).res.status).toBe(404);
    expect((await post("/admin/news", { intent: "delete", id: String(id) }, admin)).status).toBe(303);
    expect((await post("/admin/news", { intent: "delete", id: String(id) }, admin)).status).toBe(404);
    const { results } = await env.DB.prepare("SELECT action FROM audit_log WHERE target IN (?, ?) ORDER BY id")
      .bind(`news ${slug}`, `news #${id}`)
      .all<{ action: string }>();
    expect(results.map((r) => r.action)).toEqual(["news.create", "news.publish", "news.unpublish", "news.delete"]);
  });
});

describe("public news pages and feeds", () => {
  it("/news lists the newest first, filters by venture, and the cached page follows every change", async () => {
    const group = await save({ title: "Group milestone", publish: true });
    const venture = await save({ title: "FiscalMe launches", venture: "fiscal-me", publish: true });
    const first = await html("/news");
    expect(first.res.status).toBe(200);
    expect(first.body.indexOf("FiscalMe launches")).toBeLessThan(first.body.indexOf("Group milestone"));
    expect(first.body).toMatch(/<link rel="alternate" type="application\/atom\+xml"[^>]*href="\/news.atom"/);
    const filtered = await html("/news?venture=fiscal-me");
    expect(filtered.body).toContain("FiscalMe launches");
    expect(filtered.body).not.toContain("Group milestone");
    expect((await html("/news?venture=nope")).res.status).toBe(404);
    expect((await html("/subsidiary/fiscal-me")).body).toContain("FiscalMe launches");
    expect((await html("/investors")).body).toContain("Group milestone");
    // The HTML cache stored /news above; a change purges it.
    await save({ title: "Group milestone, revised", publish: true }, group);
    expect((await html("/news")).body).toContain("Group milestone, revised");
    expect((await html("/investors")).body).toContain("Group milestone, revised");
    void venture;
  });

  it("/news/<slug> has its metadata, canonical link and NewsArticle data; the sitemaps list news", async () => {
    const id = await save({ title: "Annual report 2026", summary: "The year in one page.", publish: true });
    const slug = await slugOf(id);
    const { body } = await html(`/news/${slug}`);
    expect(body).toContain("<h1");
    expect(body).toContain("Annual report 2026");
    expect(body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/news/${slug}"`));
    expect(body).toContain('<meta name="description" content="The year in one page."');
    const ld = [...body.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) =>
      JSON.parse(m[1]!),
    );
    expect(ld).toContainEqual(expect.objectContaining({ "@type": "NewsArticle", headline: "Annual report 2026" }));
    expect(await (await get("/sitemap.xml")).text()).toContain(`/news/${slug}</loc>`);
    expect((await html("/sitemap")).body).toContain('href="/news"');
  });

  it("/news.atom is Atom 1.0 with the newest items, one feed per venture, and answers 304 to a current copy", async () => {
    await save({ title: 'Feed <item> & "quotes"', body: "Some *markdown* <b>raw</b>", publish: true });
    const res = await get("/news.atom");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await res.text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(xml, true) as {
      feed: Record<string, unknown> & { entry: Record<string, unknown>[] | Record<string, unknown> };
    };
    expect(doc.feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(doc.feed.id).toBe("https://afx.test/news.atom");
    expect(Date.parse(String(doc.feed.updated))).toBeGreaterThan(0);
    const entries = [doc.feed.entry].flat();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(20);
    const entry = entries.find((e) => (e.title as { "#text": string })["#text"] === 'Feed <item> & "quotes"')!;
    expect(entry).toBeDefined();
    expect((entry.link as Record<string, string>)["@href"]).toMatch(/^https:\/\/afx\.test\/news\/feed-item-quotes/);
    expect((entry.summary as { "#text": string })["#text"]).toBe('Summary of Feed <item> & "quotes"');
    const content = entry.content as { "#text": string; "@type": string };
    expect(content["@type"]).toBe("html");
    expect(content["#text"]).toContain("<em>markdown</em>");
    expect(content["#text"]).toContain("&lt;b&gt;raw&lt;/b&gt;");

    const etag = res.headers.get("ETag")!;
    expect((await get("/news.atom", undefined, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const since = res.headers.get("Last-Modified")!;
    expect((await get("/news.atom", undefined, { headers: { "If-Modified-Since": since } })).status).toBe(304);

    await save({ title: "Venture only item", venture: "gaas", publish: true });
    const venture = await (await get("/news.atom?venture=gaas")).text();
    expect(venture).toContain("Venture only item");
    expect(venture).not.toContain("Feed &lt;item&gt;");
    expect((await get("/news.atom?venture=nope")).status).toBe(404);
  });
});

const linkIn = (mail: InboxMail, path: string) => {
  const match = mail.text.match(new RegExp(`https://afx\\.test/${path}/[A-Za-z0-9_.-]+`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(match[0]);
};

/** The outbox rows of an alert to one address. */
const alertRows = async (itemId: number, to: string) =>
  (
    await env.DB.prepare("SELECT id FROM mail_outbox WHERE kind = ? AND recipient = ?")
      .bind(alertMailKind("news", String(itemId)), to)
      .all()
  ).results.length;

describe("investor alerts", () => {
  it("reach a subscriber who confirmed by mail exactly once, never a newsletter-only one, and stop at the alert's own unsubscribe", async () => {
    const investor = unique("investor");
    const reader = unique("reader");
    const other = unique("other-investor");
    // The investor is on the newsletter too; the reader on the newsletter alone.
    await insertLeads([{ email: investor }, { email: reader }]);
    for (const email of [investor, other]) {
      const res = await postForm({ email, topic: "alerts", source: "alerts-investors", redirectTo: "/investors" });
      expect(res.status).toBe(303);
      const confirm = await waitForMail(inbox, { to: email, subject: ALERTS_CONFIRMATION_SUBJECT });
      expect(confirm.text).toContain("investor alerts");
      expect((await post(linkIn(confirm, "newsletter/confirm"), {})).status).toBe(303);
    }
    const topics = await env.DB.prepare(
      "SELECT topic, status, consent_version FROM leads WHERE email = ? ORDER BY topic",
    )
      .bind(investor)
      .all();
    expect(topics.results).toEqual([
      { topic: "alerts", status: "confirmed", consent_version: "2026-11-alerts-1" },
      { topic: "newsletter", status: "confirmed", consent_version: null },
    ]);

    const id = await save({ title: "Q3 results", summary: "Revenue up.", publish: true, alert: true });
    const subject = "AFX Holding Group: Q3 results";
    const mail = await waitForMail(inbox, { to: investor, subject });
    expect(mail.text).toContain("Revenue up.");
    expect(mail.text).toContain(`https://afx.test/news/${await slugOf(id)}`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    await waitForMail(inbox, { to: other, subject });

    // Pressed again, unpublished and published again: nothing more is queued.
    await save({ title: "Q3 results", summary: "Revenue up.", publish: true, alert: true }, id);
    await post("/admin/news", { intent: "unpublish", id: String(id) }, admin);
    await save({ title: "Q3 results", summary: "Revenue up.", publish: true, alert: true }, id);
    expect(await fanOutAlerts(env)).toBe(0);
    expect(await alertRows(id, investor)).toBe(1);
    expect(await listMail(inbox, { to: investor, subject })).toHaveLength(1);
    expect(await alertRows(id, reader)).toBe(0);
    expect(await listMail(inbox, { to: reader, subject: /Q3 results/ })).toHaveLength(0);
    const admin_ = await html("/admin/news", admin);
    // "Sent N of M": both were queued; a sent mail is marked so just after the inbox has it.
    expect(admin_.body.replace(/<!-- -->/g, "")).toMatch(/alert sent [12] of 2</);

    // The alert's one-click unsubscribe ends the alerts alone.
    const unsubscribe = new URL(mail.headers["list-unsubscribe"]!.slice(1, -1));
    // Its page names the alerts, not the newsletter the reader also takes.
    const page = await (await get(unsubscribe.pathname)).text();
    expect(page).toContain("from investor alerts?");
    expect(page).not.toContain("from the newsletter?");
    const oneClick = await post(unsubscribe, { "List-Unsubscribe": "One-Click" });
    expect(oneClick.status).toBe(200);
    const after = await env.DB.prepare("SELECT topic, status FROM leads WHERE email = ? ORDER BY topic")
      .bind(investor)
      .all();
    expect(after.results).toEqual([
      { topic: "alerts", status: "unsubscribed" },
      { topic: "newsletter", status: "confirmed" },
    ]);
    const next = await save({ title: "Q4 results", publish: true, alert: true });
    await waitForMail(inbox, { to: other, subject: "AFX Holding Group: Q4 results" });
    expect(await alertRows(next, investor)).toBe(0);
    expect(await listMail(inbox, { to: investor, subject: /Q4 results/ })).toHaveLength(0);
  });
});

describe("this wasn't me, per topic", () => {
  it("on an alerts signup of a confirmed newsletter reader drops that signup and keeps the newsletter", async () => {
    const email = unique("reader-not-me");
    await insertLeads([{ email }]);
    expect((await postForm({ email, topic: "alerts", source: "alerts-news", redirectTo: "/news" })).status).toBe(303);
    const confirm = await waitForMail(inbox, { to: email, subject: ALERTS_CONFIRMATION_SUBJECT });
    const oneClick = await post(linkIn(confirm, "newsletter/unsubscribe"), { "List-Unsubscribe": "One-Click" });
    expect(oneClick.status).toBe(200);
    const rows = await env.DB.prepare("SELECT topic, status, suppressed_at FROM leads WHERE email = ?")
      .bind(email)
      .all();
    expect(rows.results).toEqual([{ topic: "newsletter", status: "confirmed", suppressed_at: null }]);
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM suppressed_emails").first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});

describe("investor alerts in Settings", () => {
  it("a verified member turns the alerts on and off with no confirmation mail; the newsletter is its own", async () => {
    const email = unique("member-alerts");
    const { jar } = await signIn(email);
    const save = (fields: Record<string, string>) =>
      get("/settings", jar, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ alertsShown: "1", ...fields }).toString(),
      });
    const topics = async () =>
      (
        await env.DB.prepare("SELECT topic, status, consent_method FROM leads WHERE email = ? ORDER BY topic")
          .bind(email)
          .all()
      ).results;
    let res = await save({ alerts: "on" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Investor alerts are on.");
    expect(await topics()).toEqual([{ topic: "alerts", status: "confirmed", consent_method: "verified-member" }]);
    const page = await (await get("/settings", jar)).text();
    expect(page.match(/<input[^>]*role="switch"[^>]*name="alerts"[^>]*>/)![0]).toMatch(/\schecked=""/);
    res = await save({ newsletter: "on" });
    expect(await res.text()).toContain("Investor alerts are off.");
    expect(await topics()).toEqual([
      { topic: "alerts", status: "unsubscribed", consent_method: "verified-member" },
      { topic: "newsletter", status: "confirmed", consent_method: "verified-member" },
    ]);
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = ?")
      .bind(email)
      .first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});
