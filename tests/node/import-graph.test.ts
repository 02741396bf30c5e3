// The layering of docs/decisions/006-code-layout.md, read from the source: no import cycle among
// the app's and the worker's modules, not even through a type (a type-only circle still ties two
// modules together: neither can move or split alone), the app never imports the worker layer,
// features never import routes, and app/utils imports no feature, route or component.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolve(path: string): string | null {
  for (const ext of EXTENSIONS) {
    const candidate = normalize(path + ext);
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return candidate;
  }
  return null;
}

/** The imports of each module, type-only ones included (`import type`, `export type … from`). */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of [...sources("app"), ...sources("worker")]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const deps: string[] = [];
    for (const [, spec = ""] of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/gm)) {
      const [bare = ""] = spec.split("?");
      const target = bare.startsWith("~/")
        ? resolve(join("app", bare.slice(2)))
        : bare.startsWith(".")
          ? resolve(join(dirname(file), bare))
          : null;
      if (target) deps.push(relative(".", target));
    }
    edges.set(file, deps);
  }
  return edges;
}

describe("the import graph", () => {
  const edges = graph();

  it("has the modules it should (the reader works)", () => {
    expect(edges.size).toBeGreaterThan(100);
    expect(edges.get("worker/server.ts")).toContain("worker/html-cache.ts");
    expect(edges.get("app/routes/api.leads.ts")).toContain("app/features/leads/signup.server.ts");
    // Type-only imports count: root-data.ts imports nothing but types.
    expect(edges.get("app/root-data.ts")).toContain("app/features/auth/current-user.ts");
  });

  it("has no cycle", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[][] = [];
    const visit = (file: string, path: string[]) => {
      state.set(file, "open");
      for (const dep of edges.get(file) ?? []) {
        if (state.get(dep) === "open") cycles.push([...path.slice(path.indexOf(dep)), dep]);
        else if (!state.has(dep)) visit(dep, [...path, dep]);
      }
      state.set(file, "done");
    };
    for (const file of edges.keys()) if (!state.has(file)) visit(file, [file]);
    expect(cycles.map((c) => c.join(" → "))).toEqual([]);
  });

  it("no module imports the root route back, not even for a type (the shell reads app/root-data.ts)", () => {
    const importers = [...sources("app"), ...sources("worker")].filter((file) =>
      /from\s*["'](~\/root|(\.\.?\/)+root)["']/.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(importers).toEqual([]);
  });

  it("points one way: app never imports the worker layer, features never routes, utils no feature, content nothing above it", () => {
    const wrong = [...edges].flatMap(([file, deps]) =>
      deps
        .filter(
          (dep) =>
            (file.startsWith("app/") && dep.startsWith("worker/")) ||
            (file.startsWith("app/features/") && dep.startsWith("app/routes/")) ||
            (file.startsWith("app/utils/") && /^app\/(features|routes|components)\//.test(dep)) ||
            (file.startsWith("app/content/") && /^app\/(utils|features|routes)\//.test(dep)),
        )
        .map((dep) => `${file} → ${dep}`),
    );
    expect(wrong).toEqual([]);
  });

  it("the lower layers never reach up: content and db import only themselves, components never a route (decision 031)", () => {
    const within = (file: string, dep: string, dir: string) => file.startsWith(dir) && !dep.startsWith(dir);
    const wrong = [...edges].flatMap(([file, deps]) =>
      deps
        .filter(
          (dep) =>
            within(file, dep, "app/content/") ||
            within(file, dep, "app/db/") ||
            (file.startsWith("app/components/") && dep.startsWith("app/routes/")),
        )
        .map((dep) => `${file} → ${dep}`),
    );
    expect(wrong).toEqual([]);
  });
});
