// Our log lines (log.server.ts): one line per event, its fields as one object with the request id,
// nothing a provider or a URL could forge or leak; Workers Logs drop query strings too.
import { afterEach, describe, expect, it, vi } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { log } from "~/utils/log.server";
import { get, startLogin } from "./auth-helpers";

afterEach(() => vi.restoreAllMocks());

describe("sign-in failures in the log", () => {
  it("the provider's error parameter cannot forge a log line", async () => {
    const warn = vi.spyOn(console, "warn");
    const { jar } = await startLogin();
    const forged = encodeURIComponent("access_denied\n[admin] granted to attacker");
    await get(`/api/callback?error=${forged}`, jar);
    await get(`/api/callback?error=${forged}&state=nope`, jar);
    expect(warn).toHaveBeenCalled();
    for (const [line] of warn.mock.calls) expect(String(line)).not.toMatch(/[\n\r]/);
  });

  it("log lines carry their fields as one object, with the request id (cf-ray)", async () => {
    const warn = vi.spyOn(console, "warn");
    const { jar } = await startLogin();
    await get("/api/callback?code=x&state=nope", jar, { headers: { "cf-ray": "8f1e2d3c4b5a6978-FRA" } });
    const line = warn.mock.calls.find(([message]) => String(message).startsWith("[sign-in] failed"));
    expect(line?.[1]).toMatchObject({ level: "warn", message: line?.[0], requestId: "8f1e2d3c4b5a6978-FRA" });
    expect(JSON.parse(JSON.stringify(line?.[1]))).toEqual(line?.[1]);
  });
});

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
