// Production refuses to serve a laptop's configuration (worker/production-config.ts): example
// secrets, addresses and client ids, an http issuer, mail it cannot send. Local runs are not refused.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import devVarsExample from "../../.dev.vars.example?raw";
import wranglerToml from "../../wrangler.toml?raw";
import { configProblems, EXAMPLE_SESSION_SECRET } from "../../worker/production-config";
import { ORIGIN } from "./auth-helpers";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";

// worker/server.ts logs a configuration problem once per isolate, and this suite's files share
// isolates (vitest.config.ts): this file asserts on that log, so it takes a copy of its own.
vi.resetModules();
const { default: worker } = await import("../../worker/server");

afterEach(() => vi.restoreAllMocks());

describe("production refuses example secrets, an http issuer, the example admin and mail it cannot send", () => {
  it("production refuses to serve with the example secret, an http: issuer, the example admin or mail it cannot send", async () => {
    expect(devVarsExample).toContain(`SESSION_SECRET="${EXAMPLE_SESSION_SECRET}"`);
    const good = { ...env, ...GOOD_PRODUCTION_VARS };
    expect(configProblems(good)).toEqual([]);
    // Mail that could never leave: the local server, an example host or sender, or plain text (a
    // value that does not even parse is named by the same check).
    for (const host of ["127.0.0.1", "localhost", "[::1]", "smtp.example.com", ""]) {
      expect(configProblems({ ...good, SMTP_HOST: host })).toEqual([expect.stringMatching(/^SMTP_HOST/)]);
    }
    expect(configProblems({ ...good, SMTP_SECURITY: "off" })).toEqual([expect.stringMatching(/^SMTP_SECURITY/)]);
    for (const from of ["AFX Holding Group <newsletter@example.com>", "news@afx.test", "not an address"]) {
      expect(configProblems({ ...good, MAIL_FROM: from })).toEqual([expect.stringMatching(/^MAIL_FROM/)]);
    }
    const bad = {
      ...good,
      SESSION_SECRET: EXAMPLE_SESSION_SECRET,
      OAUTH_ISSUER: "http://localhost:9400",
      ADMIN_EMAILS: "admin@example.com",
    };
    expect(configProblems(bad)).toHaveLength(3);
    // Local and test runs use the example values on purpose and are not refused.
    expect(configProblems({ ...bad, ENVIRONMENT: "development" })).toEqual([]);

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    type Incoming = Parameters<typeof worker.fetch>[0];
    const ctx = createExecutionContext();
    const refused = await worker.fetch(new Request(`${ORIGIN}/robots.txt`) as Incoming, bad as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toContain(EXAMPLE_SESSION_SECRET);
    expect(errors.mock.calls.flat().join(" ")).toMatch(/SESSION_SECRET is the example value/);
    const ctx2 = createExecutionContext();
    const served = await worker.fetch(new Request(`${ORIGIN}/robots.txt`) as Incoming, good as Env, ctx2);
    await waitOnExecutionContext(ctx2);
    expect(served.status).toBe(200);
  });
});

describe("production refuses the example contact addresses and the placeholder client id", () => {
  const good = { ...env, ...GOOD_PRODUCTION_VARS };

  it.each([
    ["CONTACT_EMAIL", "hello@example.com"],
    ["INVESTOR_EMAIL", "investors@example.com"],
    ["OAUTH_CLIENT_ID", "REPLACE-WITH-THE-PRODUCTION-CLIENT-ID"],
    ["OAUTH_CLIENT_ID", "afx-local"],
  ])("%s = %s", (name, value) => {
    expect(configProblems(good)).toEqual([]);
    expect(configProblems({ ...good, [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}`))]);
    expect(configProblems({ ...good, [name]: value, ENVIRONMENT: "development" })).toEqual([]);
  });

  it("the committed production variables are refused until they are replaced", () => {
    const production = wranglerToml.slice(wranglerToml.indexOf("[env.production.vars]"));
    for (const name of ["CONTACT_EMAIL", "INVESTOR_EMAIL", "OAUTH_CLIENT_ID"]) {
      const value = production.match(new RegExp(`^${name} = "([^"]*)"`, "m"))![1]!;
      expect(configProblems({ ...good, [name]: value }), name).toEqual([expect.stringMatching(new RegExp(`^${name}`))]);
    }
  });
});
