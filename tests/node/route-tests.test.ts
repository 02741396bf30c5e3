// The inner loop covers every route: each route module with a loader or an action (and the root)
// is imported by a test of tests/server/ (`~/routes/<name>`), whose loaders and actions run there
// without a build (tests/server/route-args.ts). A new route without such a test fails here.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const HANDLER = /^export (?:async )?function (?:loader|action)\b|^export const (?:loader|action)\b/m;

/** `~/routes/<name>` of each route module with a loader or an action, and `~/root`. */
function routesWithHandlers(): string[] {
  const dir = join(ROOT, "app/routes");
  const found = ["~/root"];
  for (const name of readdirSync(dir)) {
    const folder = statSync(join(dir, name)).isDirectory();
    const source = readFileSync(join(dir, name, folder ? "route.tsx" : ""), "utf8");
    if (HANDLER.test(source)) found.push(`~/routes/${folder ? `${name}/route` : name.replace(/\.tsx?$/, "")}`);
  }
  return found.sort();
}

function importedByServerTests(): Set<string> {
  const dir = join(ROOT, "tests/server");
  const imported = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".test.ts"))) {
    for (const [, spec] of readFileSync(join(dir, name), "utf8").matchAll(/from "(~\/(?:routes\/[^"]+|root))"/g))
      imported.add(spec!);
  }
  return imported;
}

describe("route tests", () => {
  it("every route module with a loader or an action is called by a test of tests/server/", () => {
    const routes = routesWithHandlers();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const imported = importedByServerTests();
    expect(routes.filter((r) => !imported.has(r))).toEqual([]);
  });
});
