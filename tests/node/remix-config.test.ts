// remix.config.js is the one place for Remix's options, and every option in it is one the Vite
// plugin reads: with the route config (app/routes.ts) the file-route options would be ignored.
import { fileURLToPath } from "node:url";
import { resolveConfig } from "vite";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("remix.config.js", () => {
  it("holds only options the Vite plugin reads, and every v3 future flag but single fetch", () => {
    const read = [
      "appDirectory",
      "buildDirectory",
      "basename",
      "buildEnd",
      "future",
      "manifest",
      "presets",
      "serverBuildFile",
      "serverBundles",
      "serverModuleFormat",
      "ssr",
      "prerender",
    ];
    for (const key of Object.keys(remixConfig)) expect(read, key).toContain(key);
    expect(remixConfig.future).toEqual({
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      // Off: docs/decisions/058-data-protocol.md.
      v3_singleFetch: false,
      v3_routeConfig: true,
    });
  });

  it("is what the Remix plugin builds with: its flags, and the routes of app/routes.ts", async () => {
    // The plugin leaves its resolved options on Vite's resolved config (its own cloudflare proxy reads them there).
    const config = await resolveConfig(
      { configFile: `${ROOT}vite.config.ts`, root: ROOT, logLevel: "silent" },
      "build",
      "production",
    );
    const plugin = (
      config as unknown as {
        __remixPluginContext: { remixConfig: { future: object; routes: Record<string, { path?: string }> } };
      }
    ).__remixPluginContext.remixConfig;
    expect(plugin.future).toEqual(expect.objectContaining(remixConfig.future));
    // Routes come from the route config, so a route it names is there under its path.
    expect(Object.values(plugin.routes).map((r) => r.path)).toContain("admin/messages");
  }, 60_000);
});
