// The `~` alias is declared once (tsconfig.json "paths"); every build and test config takes it
// from scripts/lib/alias.mjs. Each config is loaded as Vite and vitest load it, and what it
// resolves `~` to is compared, so a config with its own (or a stale) mapping fails.
import { fileURLToPath } from "node:url";
import { loadConfigFromFile, resolveConfig } from "vite";
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

  it("every Vite and vitest config resolves ~ to app/", async () => {
    for (const file of [
      "vitest.config.ts",
      "vitest.e2e.config.ts",
      "vitest.node.config.ts",
      "vitest.server.config.ts",
      "vitest.unit.config.ts",
    ]) {
      const loaded = await loadConfigFromFile({ command: "serve", mode: "test" }, `${ROOT}${file}`, ROOT, "silent");
      // The `~` of aliases(), exactly; a config may add a package alias of its own beside it
      // (vitest.node.config.ts: the worker's react-dom renderer).
      expect(loaded?.config.resolve?.alias, file).toMatchObject(aliases());
    }
    const vite = await resolveConfig(
      { configFile: `${ROOT}vite.config.ts`, root: ROOT, logLevel: "silent" },
      "build",
      "production",
    );
    expect(vite.resolve.alias).toContainEqual({ find: "~", replacement: `${ROOT}app` });
  }, 60_000);
});
