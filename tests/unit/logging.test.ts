// Our log lines (log.server.ts) carry no query string or link token; Workers Logs drop query strings
// too (wrangler.toml). Sign-in failures in the log go through the worker: tests/worker/logging.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { log } from "~/utils/log.server";

afterEach(() => vi.restoreAllMocks());

describe("no query string or link token in a log line", () => {
  it("a log line never carries a query string or a link's token", () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args));
    const token = "tok3n-s3cret-0123456789abcdef";
    log("error", "render error", {
      url: `https://afx.test/newsletter/unsubscribe/${token}?utm=1`,
      error: new Error(`fetch https://afx.test/admin/leads?q=ada%40example.com failed at /newsletter/confirm/${token}`),
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(token);
    expect(text).not.toContain("ada%40example.com");
    expect(text).not.toContain("utm=1");
    expect(text).toContain("/newsletter/unsubscribe/");
  });

  it("Workers Logs drop query strings from request URLs, in production too", () => {
    const sections = wranglerToml.split(/^\[/m).filter((s) => /^(env\.production\.)?observability\]/.test(s));
    expect(sections).toHaveLength(2);
    for (const section of sections) expect(section).toMatch(/^redact_query_string = true$/m);
  });
});
