// The product's own table, written out here as literals: the pages are checked against it, not
// against the constants they render, so a wrong tagline, a swapped icon, a lost alias, a missing
// document or a changed price fails.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../fixtures/expect-defined";

const ORIGIN = "https://afx.test";

/** id, name, tagline, lucide icon (as its CSS class), in the catalogue's order. */
const VENTURES = [
  ["fiscal-me", "FiscalMe", "Fintech tools for modern finance", "dollar-sign"],
  ["gaas", "GaaS", "Government as a Service", "landmark"],
  ["gastrotech", "GastroTech", "Food cycle technology reimagined", "chef-hat"],
  ["how-to-raise", "How To Raise", "Family support for childhood development", "baby"],
  ["park-your-pup", "Park Your Pup", "The ultimate pet boarding experience", "dog"],
  ["snews", "SNews", "Slow, substantial journalism", "newspaper"],
  ["vctr", "VCTR", "Transportation, logistics, civil infrastructure", "truck"],
  ["your-sign-is-out", "Your Sign Is Out", "Maintain and address signage issues", "map-pin"],
  ["youtopia", "YouTopia", "Ethical social media - coming soon", "users"],
] as const;

/** Old and shortcut ids and the venture each stands for. */
const ALIASES = [
  ["fiscalme", "fiscal-me"],
  ["get-gaas", "gaas"],
  ["snews-press", "snews"],
] as const;

const STORE_PRICES = ["$35", "$49", "$250", "$75", "$25", "$2,500/month"];

async function html(path: string) {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
  expect(res.status, path).toBe(200);
  return res.text();
}

const text = (fragment: string) =>
  fragment
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

describe("the ventures", () => {
  it("the portfolio shows the nine, in order, each with its name, tagline, icon and stage", async () => {
    const page = await html("/portfolio");
    const cards = page
      .split("<article")
      .slice(1)
      .map((c) => c.slice(0, c.indexOf("</article>")));
    expect(cards).toHaveLength(VENTURES.length);
    for (const [i, [id, name, tagline, icon]] of VENTURES.entries()) {
      const card = expectDefined(cards[i], `card ${i}`);
      expect(card).toContain(`aria-labelledby="card-${id}"`);
      expect(card).toMatch(new RegExp(`<h[23] id="card-${id}"[^>]*>${name}</h[23]>`));
      expect(text(card)).toContain(tagline);
      expect(text(card)).toContain("MVP Development");
      // The mark's icon is the first svg of the card; each icon is used once.
      expect(expectDefined(card.match(/<svg[^>]*class="([^"]*)"/)?.[1], "the card's icon").split(" ")).toContain(
        `lucide-${icon}`,
      );
    }
  });

  it("each detail page carries the venture's name and tagline", async () => {
    for (const [id, name, tagline] of VENTURES) {
      const page = await html(`/subsidiary/${id}`);
      expect(page).toMatch(new RegExp(`<h1[^>]*>${name}</h1>`));
      expect(text(page)).toContain(tagline);
    }
  });

  it("the sidebar links every venture by its id", async () => {
    const page = await html("/legal");
    const nav = page.slice(page.indexOf("Subsidiaries"));
    const linked = [...nav.matchAll(/href="\/subsidiary\/([a-z-]+)"/g)].map((m) => m[1]);
    expect([...new Set(linked)]).toEqual(VENTURES.map(([id]) => id));
  });

  it("the old ids redirect (301) to their venture", async () => {
    for (const [alias, id] of ALIASES) {
      const res = await SELF.fetch(`${ORIGIN}/subsidiary/${alias}`, { redirect: "manual" });
      expect(res.status, alias).toBe(301);
      expect(new URL(res.headers.get("Location")!, ORIGIN).pathname).toBe(`/subsidiary/${id}`);
    }
  });
});

describe("the documents", () => {
  it("one corporate overview, then a pitch deck per venture, each dated January 15, 2024", async () => {
    const page = await html("/documents");
    const links = [...page.matchAll(/href="(\/documents\/[^"]+\.pdf)" download=""/g)].map((m) => m[1]);
    expect([...new Set(links)]).toEqual([
      "/documents/corporate/afx-holding-group-overview.pdf",
      ...VENTURES.map(([id]) => `/documents/subsidiaries/${id}/pitch-deck.pdf`),
    ]);
    const t = text(page);
    expect(t.indexOf("Corporate")).toBeLessThan(t.indexOf("AFX Holding Group Corporate Overview"));
    expect(t.indexOf("AFX Holding Group Corporate Overview")).toBeLessThan(t.indexOf("Pitch Decks"));
    let at = t.indexOf("Pitch Decks");
    for (const [, name] of VENTURES) {
      const next = t.indexOf(`${name} Pitch Deck`, at);
      expect(next, name).toBeGreaterThan(at);
      at = next;
    }
    expect(t.match(/January 15, 2024/g)).toHaveLength(1 + VENTURES.length);
  });

  it("the library serves a PDF for each of them at its old URL", async () => {
    for (const url of [
      "/documents/corporate/afx-holding-group-overview.pdf",
      ...VENTURES.map(([id]) => `/documents/subsidiaries/${id}/pitch-deck.pdf`),
    ]) {
      const res = await SELF.fetch(`https://afx.test${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.byteLength, url).toBeGreaterThan(500);
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    }
  });
});

describe("the store", () => {
  it("six featured products at $35, $49, $250, $75, $25 and $2,500/month, and 100+ products", async () => {
    const t = text(await html("/store"));
    expect(t.match(/\$[\d,]+(?:\/month)?/g)).toEqual(STORE_PRICES);
    expect(t).toContain("100+ products");
  });
});
