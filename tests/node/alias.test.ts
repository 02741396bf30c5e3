// The `~` alias is declared once (tsconfig.json "paths"); every build and test config takes it
// from scripts/lib/alias.mjs, and none spells its own.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { aliases } from "../../scripts/lib/alias.mjs";
import { formatPrice } from "~/content/store";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the ~ alias", () => {
  it("maps ~ to app/, read from tsconfig.json", () => {
    expect(aliases()).toEqual({ "~": `${ROOT}app` });
  });

  it("resolves in this config too", () => {
    expect(typeof formatPrice).toBe("function");
  });

  it("every Vite and vitest config takes it from alias.mjs", () => {
    for (const file of ["vite.config.ts", "vitest.config.ts", "vitest.e2e.config.ts", "vitest.node.config.ts"]) {
      const text = readFileSync(`${ROOT}${file}`, "utf8");
      expect(text, file).toContain("resolve: { alias: aliases() }");
      expect(text, file).not.toMatch(/["']~["']\s*:/);
    }
  });
});
