// The one admin guard is on every admin loader and action: read from the route modules, so a new
// admin route without it fails here before any request does (app/features/auth/guard.server.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES } from "~/content/pages";

const ROUTES = fileURLToPath(new URL("../../app/routes", import.meta.url));

/** Route modules: `name.tsx` files and folder routes' `name/route.tsx`, by route name. */
function routeModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const name of readdirSync(ROUTES)) {
    const path = join(ROUTES, name);
    if (statSync(path).isDirectory()) modules.set(name, readFileSync(join(path, "route.tsx"), "utf8"));
    else modules.set(name.replace(/\.tsx?$/, ""), readFileSync(path, "utf8"));
  }
  return modules;
}

/** Each exported loader and action with its body (up to the next top-level declaration). */
function handlers(source: string): { name: string; body: string }[] {
  return [
    ...source.matchAll(
      /^export (?:async )?function (loader|action)\b[\s\S]*?(?=^(?:export |function |const |\/\*\*|\/\/ )|(?![\s\S]))/gm,
    ),
  ].map(([body, name = ""]) => ({
    name,
    body,
  }));
}

/** Admin-only handlers outside the admin.* routes: the leads API's list and statistics. */
const ADMIN_HANDLERS_ELSEWHERE: Record<string, string[]> = { "api.leads": ["loader"], "api.leads.stats": ["loader"] };

describe("admin routes", () => {
  const modules = routeModules();

  it("every loader and action of an admin route starts with requireAdmin", () => {
    const unguarded: string[] = [];
    let checked = 0;
    for (const [route, source] of modules) {
      const names =
        route.startsWith("admin.") || route.startsWith("admin[")
          ? ["loader", "action"]
          : (ADMIN_HANDLERS_ELSEWHERE[route] ?? []);
      for (const { name, body } of handlers(source).filter((h) => names.includes(h.name))) {
        checked++;
        if (!/\bawait requireAdmin\(request,/.test(body)) unguarded.push(`${route} ${name}`);
      }
    }
    expect(unguarded).toEqual([]);
    // admin.leads, its $id page (loader, action), the CSV, admin.messages (loader, action), the person export, the API's two.
    expect(checked).toBeGreaterThanOrEqual(9);
  });

  it("each admin page of app/content/pages.ts has a guarded route", () => {
    for (const page of ADMIN_PAGES) {
      const source = modules.get(page.path.slice(1).replaceAll("/", "."));
      expect(source, page.path).toBeDefined();
      expect(handlers(source!).find((h) => h.name === "loader")?.body).toMatch(
        /\bawait requireAdmin\(request, [^)]*\)/,
      );
    }
  });

  it("no route decides admin access itself", () => {
    const own = [...modules]
      .filter(([, source]) =>
        /\bisAdmin\(|role\s*===\s*["']admin["']|getAdminOrNull|requireAdminApi|adminOrResponse/.test(source),
      )
      .map(([route]) => route);
    expect(own).toEqual([]);
  });
});
