// What the local stack prints: wrangler's output without its repeats and stack dumps, and the
// files that point into the README point at headings it has.
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { relayFiltered, wranglerOutputFilter } from "../../scripts/lib/wrangler-output.mjs";

const TABLE = [
  "Your Worker has access to the following bindings:",
  "Binding                 Resource          Mode",
  "env.DB (afx-leads)      D1 Database       local",
  "",
];

describe("wrangler's output as npm start relays it", () => {
  it("prints the bindings table once, however often wrangler reloads", () => {
    const filter = wranglerOutputFilter();
    const printed = [...TABLE, "⎔ Local server updated and ready", ...TABLE, "[wrangler:info] Ready"].flatMap((line) =>
      filter.push(line),
    );
    expect(printed).toEqual([...TABLE, "⎔ Local server updated and ready", "[wrangler:info] Ready"]);
  });

  it("turns workerd's unresolved-host error and its native stack into one line", () => {
    const filter = wranglerOutputFilter();
    const printed = [
      "\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1me = rust/worker/ffi.rs:104: failed: failed to lookup address information: Name or service not known\u001b[0m",
      "",
      "  stack: /node_modules/@cloudflare/workerd-linux-64/bin/workerd@3d4d979 workerd@2b5edc0",
      "",
      "",
      "✘ [ERROR] Failed to fetch blog posts {",
    ].flatMap((line) => filter.push(line));
    expect(printed).toEqual([
      "[worker] a fetch could not resolve its host (no network?): the app's own log line follows",
      "✘ [ERROR] Failed to fetch blog posts {",
    ]);
  });

  it("relays a stream line by line, across chunk boundaries", async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    let out = "";
    to.on("data", (chunk) => (out += chunk));
    relayFiltered(from, to);
    from.write("first li");
    from.write("ne\nsecond\n");
    from.end("last");
    await new Promise((resolve) => from.on("end", resolve));
    expect(out).toBe("first line\nsecond\nlast\n");
  });
});

describe("references into the README", () => {
  const headings = new Set([...readFileSync("README.md", "utf8").matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim()));
  it.each([".dev.vars.example"])("%s names only sections the README has", (file) => {
    const text = readFileSync(file, "utf8");
    const named = [...text.matchAll(/README "([^"]+)"(?:; [a-z]+: "([^"]+)")?/g)].flatMap((m) =>
      [m[1], m[2]].filter((s): s is string => Boolean(s)),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const section of named) expect(headings, `${file}: README "${section}"`).toContain(section);
  });
});
