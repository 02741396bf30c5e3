// The guard every npm script's entry imports first (scripts/lib/node-version.mjs).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeProblem } from "../../scripts/lib/node-version.mjs";

const wanted = JSON.parse(readFileSync("package.json", "utf8")).engines.node.replace(/^>=/, "");

describe("the Node version guard", () => {
  it("names the required version and how to get it for an older Node, and passes a newer one", () => {
    expect(nodeProblem("20.20.2")).toBe(
      `✘ This project needs Node.js ${wanted} or newer (Node 24 LTS); this is v20.20.2. Install it with \`nvm install\` (reads .nvmrc), or see README "Requirements".`,
    );
    expect(nodeProblem("24.10.0")).toMatch(/needs Node\.js 24\.11\.0 or newer/);
    expect(nodeProblem(wanted)).toBeNull();
    expect(nodeProblem("24.21.0")).toBeNull();
    expect(nodeProblem("26.0.0")).toBeNull();
    // .nvmrc (nvm, .ci/run) names the same major as engines.node.
    expect(readFileSync(".nvmrc", "utf8").trim()).toBe(wanted.split(".")[0]);
  });

  it("stops `npm test`'s entry at once with that one line, before anything else runs", () => {
    // This Node, made to report an old version before the entry's first import runs.
    const pretend = `data:text/javascript,Object.defineProperty(process.versions, "node", { value: "20.20.2" })`;
    const run = spawnSync(process.execPath, ["--import", pretend, "scripts/test.mjs"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toEqual([nodeProblem("20.20.2")]);
  });
});
