// remix.config.js is the one place for Remix's options, and every option in it is one the Vite
// plugin reads: with the route config (app/routes.ts) the file-route options would be ignored.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";

describe("remix.config.js", () => {
  it("holds only options the Vite plugin reads, and every v3 future flag", () => {
    const read = ["appDirectory", "buildDirectory", "basename", "buildEnd", "future", "manifest", "presets", "serverBuildFile", "serverBundles", "serverModuleFormat", "ssr", "prerender"];
    for (const key of Object.keys(remixConfig)) expect(read, key).toContain(key);
    expect(remixConfig.future).toEqual({
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: true,
      v3_routeConfig: true,
    });
  });

  it("is what vite.config.ts gives the plugin, and no other config spells Remix options", () => {
    const vite = readFileSync("vite.config.ts", "utf8");
    expect(vite).toContain('import remixConfig from "./remix.config.js"');
    expect(vite).toContain("remix(remixConfig)");
    // The plugin is called once, with this file's object (the Future augmentation there is a type).
    expect(vite.match(/\bremix\(/g)).toEqual(["remix("]);
  });
});
