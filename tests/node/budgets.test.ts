import { describe, expect, it } from "vitest";
import budgets from "../../bench/budgets.json";
import { assetBytes, frameworkFloor, remixManifest, routeChain, workerBundle } from "../../scripts/lib/sizes.mjs";

// Sizes are deterministic for a given build, so they can guard CI without flaking; times are not.
describe("size budgets", () => {
  const manifest = remixManifest();

  it(`landing page JavaScript stays within ${budgets.landingJsGzip} bytes gzip`, () => {
    const { jsGzip } = assetBytes(manifest, routeChain(manifest, "routes/_index"));
    expect(jsGzip).toBeGreaterThan(frameworkFloor(manifest));
    expect(jsGzip).toBeLessThanOrEqual(budgets.landingJsGzip);
  });

  it("landing page JavaScript stays within 1.3 × the framework floor (React + Remix runtime)", () => {
    const { jsGzip } = assetBytes(manifest, routeChain(manifest, "routes/_index"));
    expect(jsGzip / frameworkFloor(manifest)).toBeLessThanOrEqual(1.3);
  });

  it(`worker bundle stays within ${budgets.workerGzip} bytes gzip`, () => {
    const { gzip } = workerBundle();
    expect(gzip).toBeGreaterThan(10_000);
    expect(gzip).toBeLessThanOrEqual(budgets.workerGzip);
  }, 120_000);
});
