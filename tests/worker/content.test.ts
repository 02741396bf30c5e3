import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  consultancyCopy,
  fundingCopy,
  helpCopy,
  investorsCopy,
  legalCopy,
  partnersCopy,
  portfolioCopy,
} from "~/content/copy";
import { STARTING_DOCUMENTS as documents } from "~/content/documents";
import { formatBytes } from "~/features/documents/library";
import { notifications } from "~/content/notifications";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { formatPrice, STORE_PRODUCT_CLAIM, storeCategories, storeProducts } from "~/content/store";
import { parseVideoConfig, STAGES, STARTING_VENTURES, withVideos } from "~/content/ventures";
import { checkEmbeddable, framingAllowed } from "~/features/ventures/embed-probe.server";
import { TEST_DOMAINS, WITHOUT_DOMAIN } from "../fixtures/venture-domains";
import { expectDefined } from "../fixtures/expect-defined";

const ORIGIN = "https://afx.test";
const get = (path: string, init?: RequestInit) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

/** The page's visible text: tags dropped, React's entities decoded, whitespace collapsed. */
function text(html: string) {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

async function page(path: string, status = 200) {
  const res = await get(path);
  expect(res.status).toBe(status);
  const html = await res.text();
  return { html, text: text(html) };
}

function jsonLd(html: string): Record<string, any>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(expectDefined(m[1])),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

describe("landing", () => {
  it("has the hero, every venture card, About and 'Ready to Connect?'", async () => {
    const { html, text: t } = await page("/");
    expect(t).toContain("Browse our ventures and consider funding us!");
    expect(html).toMatch(/<a[^>]*href="\/portfolio"[^>]*>Explore Portfolio/);
    expect(html).toContain('id="portfolio"');
    for (const s of STARTING_VENTURES) {
      expect(t).toContain(s.name);
      expect(t).toContain(s.tagline);
      expect(html).toContain(`href="/documents?subsidiary=${s.id}"`);
      const domain = TEST_DOMAINS[s.id];
      if (domain)
        expect(html).toMatch(
          new RegExp(`<a[^>]*href="https://${escape(domain)}"[^>]*target="_blank"[^>]*rel="noopener noreferrer"`),
        );
    }
    // The venture without a configured domain links nowhere outside the site.
    expect(html).not.toMatch(new RegExp(`href="https://[^"]*${WITHOUT_DOMAIN}`));
    expect(t.match(/MVP Development/g)?.length).toBe(STARTING_VENTURES.length);
    expect(t).toContain("Ready to Connect?");
    expect(html).toMatch(/<a[^>]*href="\/api\/login"[^>]*>Get Started/);
  });

  it("emits the group's Organization JSON-LD with its facts (founded 2020, 67000+ employees)", async () => {
    const { html } = await page("/");
    const org = jsonLd(html).find((j) => j["@type"] === "Organization")!;
    expect(org.name).toBe(SITE.name);
    expect(org.foundingDate).toBe("2020");
    expect(org.numberOfEmployees.minValue).toBe(67000);
    expect(org.url).toBe(`${env.SITE_URL}/`);
    expect(org.contactPoint.telephone).toBe(env.CONTACT_PHONE);
    expect(org.subOrganization).toHaveLength(STARTING_VENTURES.length);
  });

  it("/home has the same canonical URL as /", async () => {
    const { html } = await page("/home");
    expect(html).toContain(`<link rel="canonical" href="${env.SITE_URL}/"/>`);
  });
});

describe("subsidiary cards", () => {
  it("a card without a video has no 'Video' badge and no player", async () => {
    const { html } = await page("/portfolio");
    expect(html).not.toContain("youtube");
    expect(html).not.toMatch(/>Video</);
  });

  it("video ids come only from SUBSIDIARY_VIDEOS and must look like YouTube ids", () => {
    expect(parseVideoConfig("")).toEqual({});
    expect(parseVideoConfig(" fiscal-me = abcdefghijk , nope=abcdefghijk, gaas=short, snews=abc<script>x")).toEqual({
      "fiscal-me": "abcdefghijk",
    });
    const list = withVideos(STARTING_VENTURES, { gaas: "abcdefghijk" });
    expect(list.find((s) => s.id === "gaas")?.youtubeVideoId).toBe("abcdefghijk");
    expect(list.filter((s) => s.youtubeVideoId)).toHaveLength(1);
  });
});

describe("content pages quote the catalogue", () => {
  it("portfolio: every venture and the 9 / 8 / 1 tiles", async () => {
    const { text: t } = await page("/portfolio");
    for (const s of STARTING_VENTURES) expect(t).toContain(s.name);
    for (const tile of portfolioCopy.tiles) expect(t).toContain(`${tile.label} ${tile.value}`);
    // A description list: the label (dt) comes first in the markup, the number (dd) second.
    expect(t).toContain("Active Ventures 9 Industry Sectors 8 Unified Ecosystem 1");
  });

  it("investors: 11 active ventures, 'Why Invest With Us', mailto and call", async () => {
    const { html, text: t } = await page("/investors");
    expect(t).toContain("Active Ventures 11 Focus Impact Growth Organic");
    for (const tile of investorsCopy.tiles) expect(t).toContain(`${tile.label} ${tile.value}`);
    expect(t).toContain("Why Invest With Us");
    for (const c of investorsCopy.why) expect(t).toContain(c.title);
    expect(html).toContain(`href="mailto:${env.INVESTOR_EMAIL}?subject=`);
    expect(html).toContain(`href="tel:${env.CONTACT_PHONE.replace(/[^\d+]/g, "")}"`);
  });

  it("funding: 'Where We Are Today', models, reasons and 'Connect With Us'", async () => {
    const { html, text: t } = await page("/funding");
    expect(t).toContain("seed-strapping");
    expect(t).toContain("Where We Are Today");
    expect(t).toContain(`Ventures in the portfolio ${STARTING_VENTURES.length}`);
    for (const m of fundingCopy.models) expect(t).toContain(m.title);
    for (const r of fundingCopy.reasons) expect(t).toContain(r);
    expect(html).toMatch(new RegExp(`href="mailto:${env.INVESTOR_EMAIL}[^"]*"[^>]*>.*?Connect With Us`));
  });

  it("consultancy: the four criteria, support and 'Submit Your Inquiry'", async () => {
    const { html, text: t } = await page("/consultancy");
    for (const c of ["Innovation", "Market Fit", "Scalability", "Team"]) expect(t).toContain(c);
    for (const c of consultancyCopy.support) expect(t).toContain(c.title);
    expect(html).toMatch(new RegExp(`href="mailto:${env.CONTACT_EMAIL}[^"]*"[^>]*>.*?Submit Your Inquiry`));
  });

  it("store: three categories, six products at the product's fixed prices, 100+, external links", async () => {
    const { html, text: t } = await page("/store");
    for (const c of storeCategories) {
      expect(t).toContain(c.name);
      expect(html).toContain(`href="${env.STORE_URL}${c.path}"`);
    }
    expect(storeProducts.map(formatPrice)).toEqual(["$35", "$49", "$250", "$75", "$25", "$2,500/month"]);
    for (const p of storeProducts) {
      expect(t).toContain(`${p.name}`);
      expect(t).toContain(formatPrice(p));
    }
    expect(t).toContain(`${STORE_PRODUCT_CLAIM} products`);
    expect(html.match(/target="_blank" rel="noopener noreferrer"/g)!.length).toBeGreaterThanOrEqual(11);
  });

  it("legal: terms, privacy, last updated October 21, 2025 and contact details", async () => {
    const { html, text: t } = await page("/legal");
    expect(t).toContain("Last updated October 21, 2025");
    for (const s of legalCopy.sections) expect(t).toContain(s.heading);
    expect(html).toContain(`href="mailto:${env.CONTACT_EMAIL}"`);
    expect(t).toContain(env.CONTACT_PHONE);
  });

  it("partners: benefits, the four partnership types, mailto and call", async () => {
    const { html, text: t } = await page("/partners");
    expect(partnersCopy.types.map((p) => p.title)).toEqual([
      "Technology Partners",
      "Distribution Partners",
      "Strategic Alliances",
      "Affiliate Partners",
    ]);
    for (const p of partnersCopy.types) expect(t).toContain(p.title);
    for (const b of partnersCopy.benefits) expect(t).toContain(b);
    expect(html).toContain(`href="mailto:${env.CONTACT_EMAIL}?subject=`);
    expect(html).toContain('href="tel:');
  });

  it("sitemap: the three groups and every venture, with its domain where one is configured", async () => {
    const { html, text: t } = await page("/sitemap");
    for (const g of ["Main Pages", "Company", "Account &amp; Settings"]) expect(html).toContain(g);
    expect(html).toMatch(/<a[^>]*href="\/api\/login"[^>]*>Log In</);
    for (const s of STARTING_VENTURES) {
      expect(html).toContain(`href="/subsidiary/${s.id}"`);
      const domain = TEST_DOMAINS[s.id];
      if (!domain) continue;
      expect(html).toContain(`href="https://${domain}"`);
      expect(t).toContain(domain);
    }
    const external = [...html.matchAll(/href="(https:\/\/[^"]+\.example)"/g)].map((m) => m[1]);
    expect(external.sort()).toEqual(
      Object.values(TEST_DOMAINS)
        .map((d) => `https://${d}`)
        .sort(),
    );
    for (const p of Object.values(pages).filter((p) => !ADMIN_PAGES.includes(p)))
      expect(html).toContain(`href="${p.path}"`);
  });

  it("notifications: three samples with read and unread styling, mark all read, empty state", async () => {
    const { html, text: t } = await page("/notifications");
    for (const n of notifications) expect(t).toContain(n.title);
    expect(html.match(/data-read="false"/g)).toHaveLength(notifications.filter((n) => !n.read).length);
    expect(html.match(/data-read="true"/g)).toHaveLength(notifications.filter((n) => n.read).length);
    expect(t).toContain("Mark all as read");
    const read = await page("/notifications?view=read");
    expect(read.html).not.toContain('data-read="false"');
    const cleared = await page("/notifications?view=cleared");
    expect(cleared.text).toContain("No notifications");
    expect(cleared.text).toContain("You're all caught up!");
  });

  it("help: contact details, 'Book a Session', four FAQ in one exclusive group, the form", async () => {
    const { html, text: t } = await page("/help");
    expect(html).toContain(`href="mailto:${env.CONTACT_EMAIL}"`);
    expect(t).toContain(env.CONTACT_PHONE);
    expect(html).toMatch(/<a[^>]*href="\/consultancy"[^>]*>[\s\S]*?Book a Session/);
    expect(html.match(/<details name="faq"/g)).toHaveLength(4);
    for (const q of helpCopy.faq) expect(t).toContain(q.question);
    expect(html).toMatch(/<form method="post" action="\/help#contact"/);
    expect(html).toMatch(/<textarea[^>]*rows="6"/);
    expect(t).toContain("Send Message");
  });

  it("settings: read-only fields, the switches with their defaults, the buttons", async () => {
    const { html, text: t } = await page("/settings");
    expect(html).toMatch(/<input id="settings-username"[^>]*disabled/);
    expect(html).toMatch(/<input id="settings-email"[^>]*disabled/);
    const switchState = (name: string) =>
      html.match(new RegExp(`<input[^>]*role="switch"[^>]*name="${name}"[^>]*>`))![0];
    expect(switchState("darkMode")).toMatch(/\schecked=""/);
    expect(switchState("emailNotifications")).toMatch(/\schecked=""/);
    expect(switchState("newsletter")).not.toMatch(/\schecked=""/);
    for (const label of ["Enable", "Delete Account", "Cancel", "Save Changes"]) expect(t).toContain(label);
  });
});

describe("documents", () => {
  it("groups the corporate overview and one pitch deck per venture, with real sizes", async () => {
    const { html, text: t } = await page("/documents");
    expect(t.indexOf("Corporate")).toBeLessThan(t.indexOf("Pitch Decks"));
    expect(documents).toHaveLength(STARTING_VENTURES.length + 1);
    for (const d of documents) {
      expect(html).toContain(`href="${d.url}" download=""`);
      // The size shown is the served file's own.
      const size = Number(
        (await SELF.fetch(`https://afx.test${d.url}`, { method: "HEAD" })).headers.get("content-length"),
      );
      expect(size).toBeGreaterThan(500);
      expect(t).toContain(formatBytes(size));
    }
    expect(t.match(/Download PDF/g)?.length).toBeGreaterThanOrEqual(documents.length);
    expect(t.match(/January 15, 2024/g)).toHaveLength(documents.length);
  });

  it("?subsidiary= narrows to one venture and changes the heading", async () => {
    const { html, text: t } = await page("/documents?subsidiary=vctr");
    expect(html).toMatch(/<h1[^>]*>VCTR Documents<\/h1>/);
    expect(html).toContain('href="/documents/subsidiaries/vctr/pitch-deck.pdf"');
    expect(html).not.toContain("/documents/subsidiaries/gaas/pitch-deck.pdf");
    expect(t).toContain("Show all documents");
  });

  it("an alias works as a filter and an unknown id says so and lists everything (200)", async () => {
    expect((await page("/documents?subsidiary=get-gaas")).html).toMatch(/<h1[^>]*>GaaS Documents<\/h1>/);
    const { html, text: t } = await page("/documents?subsidiary=nope%3Cb%3E");
    expect(html).toMatch(/<h1[^>]*>Documents<\/h1>/);
    expect(t).toContain("We have no venture called “nope<b>”. Showing all documents.");
    expect(html).not.toContain("nope<b>");
    for (const d of documents) expect(html).toContain(`href="${d.url}"`);
  });
});

describe("subsidiary detail", () => {
  const configured = STARTING_VENTURES.filter((s) => TEST_DOMAINS[s.id]);
  it.each(configured.map((s) => [s.id, s] as const))("%s: header, frame and structured data", async (id, s) => {
    const { html, text: t } = await page(`/subsidiary/${id}`);
    const domain = TEST_DOMAINS[id];
    expect(t).toContain(s.tagline);
    expect(t).toContain(STAGES[s.status]);
    expect(html).toMatch(
      new RegExp(`<a[^>]*href="https://${escape(expectDefined(domain))}"[^>]*target="_blank"[^>]*>Open in New Tab`),
    );
    expect(html).toMatch(/<a[^>]*href="\/portfolio"[^>]*>[\s\S]*?Back/);
    // The frame mounts in the browser (tests/e2e/content.test.ts); without JavaScript, a pointer.
    expect(html).toMatch(/<noscript><p[^>]*>Use “Open in New Tab” to visit/);
    const ld = jsonLd(html);
    expect(ld.find((j) => j["@type"] === "Organization")).toMatchObject({ name: s.name, url: `https://${domain}` });
    expect(ld.find((j) => j["@type"] === "BreadcrumbList")?.itemListElement.map((i: any) => i.name)).toEqual([
      "Home",
      "Portfolio",
      s.name,
    ]);
    expect(html).toContain(`<link rel="canonical" href="${env.SITE_URL}/subsidiary/${id}"/>`);
  });
});

describe("embedding check", () => {
  const ours = "https://afx.test";
  it.each([
    [{}, true],
    [{ "X-Frame-Options": "DENY" }, false],
    [{ "X-Frame-Options": "sameorigin" }, false],
    [{ "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'" }, false],
    [{ "Content-Security-Policy": "frame-ancestors 'self'" }, false],
    [{ "Content-Security-Policy": "frame-ancestors https://afx.test" }, true],
    [{ "Content-Security-Policy": "frame-ancestors *" }, true],
    [{ "Content-Security-Policy": "script-src 'self'" }, true],
  ])("%o → %s", (headers, allowed) => {
    expect(framingAllowed(new Headers(headers), ours)).toBe(allowed);
  });

  it("a refusing, failing or unreachable site is not embeddable", async () => {
    const answer = (init: ResponseInit) => (async () => new Response("x", init)) as unknown as typeof fetch;
    expect(await checkEmbeddable("https://a.test/", ours, answer({ headers: { "X-Frame-Options": "DENY" } }))).toEqual({
      embeddable: false,
      reason: "refused",
    });
    expect(await checkEmbeddable("https://b.test/", ours, answer({ status: 503 }))).toEqual({
      embeddable: false,
      reason: "unreachable",
    });
    const down = (async () => {
      throw new TypeError("network");
    }) as unknown as typeof fetch;
    expect(await checkEmbeddable("https://c.test/", ours, down)).toEqual({ embeddable: false, reason: "unreachable" });
    expect(await checkEmbeddable("https://d.test/", ours, answer({}))).toEqual({ embeddable: true });
  });
});

describe("help contact form", () => {
  const valid = { name: "Ada Lovelace", email: "ada@example.com", subject: "Hello", message: "A question about GaaS." };
  const stored = async (email: string) =>
    (await env.DB.prepare("SELECT count(*) AS count FROM contact_messages WHERE email = ?")
      .bind(email)
      .first<{ count: number }>())!.count;

  it("stores a valid message in D1 and says so (no JavaScript needed)", async () => {
    const res = await get("/help", form(valid));
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain(helpCopy.success);
    const row = await env.DB.prepare("SELECT name, email, subject, message FROM contact_messages WHERE email = ?")
      .bind("ada@example.com")
      .first();
    expect(row).toEqual(valid);
  });

  it("rejects bad input with 400, field errors and the input kept", async () => {
    const res = await get("/help", form({ ...valid, email: "not-an-email", message: "" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter a valid email address.");
    expect(html).toContain("Please enter a message.");
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('value="Ada Lovelace"');
    expect(await stored("not-an-email")).toBe(0);
  });

  it("answers a filled honeypot like a person and stores nothing", async () => {
    const res = await get("/help", form({ ...valid, email: "bot@example.com", website: "spam.example" }));
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain(helpCopy.success);
    expect(await stored("bot@example.com")).toBe(0);
  });

  it("refuses an oversized body with 413", async () => {
    const res = await get("/help", form({ ...valid, message: "x".repeat(20_000) }));
    expect(res.status).toBe(413);
  });

  it("?subject= pre-fills the subject", async () => {
    const { html } = await page("/help?subject=Delete%20my%20account");
    expect(html).toMatch(/<input[^>]*name="subject"[^>]*value="Delete my account"/);
  });
});

describe("settings save", () => {
  it("tells a visitor who is not signed in what was kept and subscribes nobody", async () => {
    const res = await get("/settings", form({ newsletter: "on" }));
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain("Sign in to manage your newsletter subscription.");
    const { count } = (await env.DB.prepare("SELECT count(*) AS count FROM leads WHERE source = 'settings'").first<{
      count: number;
    }>())!;
    expect(count).toBe(0);
  });
});
