// Our log lines (log.server.ts): one line per event, its fields as one object with the request id,
// nothing a provider or a URL could forge or leak (the log lines themselves: tests/unit/logging.test.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
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
