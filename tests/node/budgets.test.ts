import { describe, expect, it } from "vitest";
import budgets from "../../bench/budgets.json";
import { assetBytes, frameworkFloor, remixManifest, routeChain, workerBundle } from "../../scripts/lib/sizes.mjs";

// Sizes are deterministic for a given build, so they can guard CI without flaking; times are not.
// Each figure is printed beside main's (bench/budgets.json's `main`, measured at the commit it
// names), so a branch sees what it adds before two branches that each pass fail once merged.
const bytes = (n: number) => `${n.toLocaleString("en-US")} B`;
const signed = (n: number) => `${n >= 0 ? "+" : "−"}${bytes(Math.abs(n))}`;

function report(name: "landingJsGzip" | "workerGzip", figure: number) {
  const main = budgets.main[name];
  const budget = budgets[name];
  console.log(
    `${name}: ${bytes(figure)} (main ${bytes(main)} at ${budgets.main.commit}, ${signed(figure - main)}); ` +
      `budget ${bytes(budget)}, headroom ${bytes(budget - figure)}`,
  );
}

describe("size budgets", () => {
  const manifest = remixManifest();

  it(`landing page JavaScript stays within ${budgets.landingJsGzip} bytes gzip, with 2 KB to spare for a merge`, () => {
    const { jsGzip } = assetBytes(manifest, routeChain(manifest, "routes/_index"));
    report("landingJsGzip", jsGzip);
    expect(jsGzip).toBeGreaterThan(frameworkFloor(manifest));
    expect(jsGzip).toBeLessThanOrEqual(budgets.landingJsGzip);
  });

  it("landing page JavaScript stays within 1.3 × the framework floor (React + Remix runtime)", () => {
    const { jsGzip } = assetBytes(manifest, routeChain(manifest, "routes/_index"));
    const floor = frameworkFloor(manifest);
    console.log(
      `landing / floor: ${(jsGzip / floor).toFixed(3)} (limit 1.3, headroom ${bytes(Math.floor(1.3 * floor) - jsGzip)})`,
    );
    expect(jsGzip / floor).toBeLessThanOrEqual(1.3);
  });

  it(`worker bundle stays within ${budgets.workerGzip} bytes gzip`, () => {
    const { gzip } = workerBundle();
    report("workerGzip", gzip);
    expect(gzip).toBeGreaterThan(10_000);
    expect(gzip).toBeLessThanOrEqual(budgets.workerGzip);
  }, 120_000);
});
