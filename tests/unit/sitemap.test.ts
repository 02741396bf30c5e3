// The HTML sitemap's completeness, without a build (the rendered page is checked by
// tests/worker/content.test.ts): every page of pages.ts but the admin's is in one of its groups,
// once, and every entry is a page of pages.ts (or the sign-in link).
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { SITEMAP_GROUPS } from "~/content/sitemap";

const linked = SITEMAP_GROUPS.flatMap((g) => g.entries.map((e) => e.path));

describe("the HTML sitemap", () => {
  it("links every page that is not an admin's", () => {
    const publicPaths = Object.values(pages)
      .filter((p) => !ADMIN_PAGES.includes(p))
      .map((p) => p.path);
    expect(publicPaths.filter((path) => !linked.includes(path))).toEqual([]);
  });

  it("links each page once, no admin page, and nothing pages.ts does not know", () => {
    expect(new Set(linked).size).toBe(linked.length);
    const known = new Set<string>(Object.values(pages).map((p) => p.path));
    expect(linked.filter((path) => !known.has(path))).toEqual(["/api/login"]);
    expect(linked.filter((path) => ADMIN_PAGES.some((p) => p.path === path))).toEqual([]);
  });
});
