// docs/product.md's Pages table names every page route: each path of app/content/pages.ts (the
// admin pages too) and each route module that renders a page, by its URL pattern.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The paths the Pages table names, each cell's `code` spans (`/a`, `/b/{id}`). */
function tablePaths(): Set<string> {
  const doc = readFileSync(join(ROOT, "docs/product.md"), "utf8");
  const start = doc.indexOf("\n## Pages\n");
  const table = doc.slice(start, doc.indexOf("\n## ", start + 1));
  const paths = new Set<string>();
  for (const line of table.split("\n").filter((l) => l.startsWith("| `")))
    for (const [, path] of line.split(" | ")[0]!.matchAll(/`([^`]+)`/g)) paths.add(path!);
  return paths;
}

/** A flat route file's name as its URL pattern: `admin.leads_.$id` → `/admin/leads/{id}`. */
function urlOf(name: string): string {
  if (name === "_index") return "/";
  // `[.]` is a literal dot inside a segment, `_` at a segment's end leaves the parent's layout.
  const segments = name
    .split(/\.(?![^[]*\])/)
    .filter((s) => s !== "_index")
    .map((s) => s.replace(/_$/, "").replaceAll("[.]", "."))
    .map((s) => (s === "$" ? "{anything}" : s.startsWith("$") ? `{${s.slice(1)}}` : s));
  return `/${segments.join("/")}`;
}

/** Route modules that render a page (a default export), but the catch-all. */
function pageRoutes(): string[] {
  const dir = join(ROOT, "app/routes");
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const folder = statSync(join(dir, name)).isDirectory();
    const source = readFileSync(folder ? join(dir, name, "route.tsx") : join(dir, name), "utf8");
    const route = folder ? name : name.replace(/\.tsx?$/, "");
    if (route !== "$" && /^export default /m.test(source)) found.push(urlOf(route));
  }
  return found;
}

describe("docs/product.md's Pages table", () => {
  const named = tablePaths();

  it("names every page of app/content/pages.ts, the admin pages among them", () => {
    expect(ADMIN_PAGES.length).toBeGreaterThan(0);
    expect(
      Object.values(pages)
        .filter((p) => !named.has(p.path))
        .map((p) => p.path),
    ).toEqual([]);
  });

  it("names every route that renders a page", () => {
    const routes = pageRoutes();
    expect(routes).toContain("/admin/messages");
    expect(routes.filter((path) => !named.has(path))).toEqual([]);
  });
});
