import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT } from "../../scripts/compile-hints";
import { ROOT } from "../../scripts/lib/config.mjs";
import { remixManifest, routeChain } from "../../scripts/lib/sizes.mjs";

// The built client (`npm run build`, as the budgets read it): V8's compile hint heads every chunk
// Rollup wrote, and the worker's own code carries none (workerd compiles it once per isolate).
describe("compile hints (scripts/compile-hints.ts)", () => {
  const assets = resolve(ROOT, "build/client/assets");
  const chunks = readdirSync(assets).filter((f) => f.endsWith(".js") && !f.startsWith("manifest-"));

  it("every client chunk starts with //# allFunctionsCalledOnLoad, once", () => {
    expect(chunks.length).toBeGreaterThan(20);
    for (const file of chunks) {
      const code = readFileSync(join(assets, file), "utf8");
      expect(code.startsWith(COMPILE_HINT), file).toBe(true);
      expect(code.indexOf("allFunctionsCalledOnLoad", COMPILE_HINT.length), file).toBe(-1);
    }
  });

  it("the landing's start-up files are among them", () => {
    const manifest = remixManifest();
    const files = [manifest.entry.module, ...manifest.entry.imports];
    for (const id of routeChain(manifest, "routes/_index")) files.push(manifest.routes[id].module);
    for (const file of files) expect(chunks).toContain(file.replace(/^\/assets\//, ""));
  });

  it("the server build has none", () => {
    const server = readFileSync(resolve(ROOT, "build/server/index.js"), "utf8");
    expect(server).not.toContain("allFunctionsCalledOnLoad");
  });
});
