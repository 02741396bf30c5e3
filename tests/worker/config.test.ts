// The one configuration (app/utils/config.server.ts): the test pool's env parses to typed values,
// each bad variable is named with what is wrong (never its value), and the worker refuses to
// serve with a configuration that does not parse.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/server";
import { ConfigError, getConfig, parseRateLimitSpec, publicConfig, readConfig } from "~/utils/config.server";
import { rateLimitOf } from "~/features/forms/rate-limit.server";
import { configProblems } from "../../worker/production-config";
import { TEST_DOMAINS } from "../fixtures/venture-domains";
import { ORIGIN } from "./auth-helpers";

afterEach(() => vi.restoreAllMocks());

const problemsOf = (vars: Record<string, string | undefined>) => readConfig({ ...env, ...vars } as Env).problems;

describe("getConfig", () => {
  it("parses the test pool's variables to typed values", () => {
    const config = getConfig(env);
    expect(config).toMatchObject({
      environment: "development",
      siteUrl: "https://afx.test",
      oauth: { issuer: env.OAUTH_ISSUER, clientId: "afx-local", clientSecret: "test-client-secret" },
      sessionSecrets: ["test-session-secret"],
      adminEmails: ["admin@example.com"],
      contact: { phone: env.CONTACT_PHONE, email: env.CONTACT_EMAIL, investorEmail: env.INVESTOR_EMAIL },
      leadsRateLimit: { attempts: 10, seconds: 600 },
      videos: {},
      domains: TEST_DOMAINS,
      embedCheck: false,
    });
    expect(rateLimitOf(config.leadsRateLimit)).toEqual({ max: 10, windowMs: 600_000, globalMax: 1000 });
  });

  it("is parsed once per env object", () => {
    expect(getConfig(env)).toBe(getConfig(env));
    expect(getConfig({ ...env })).not.toBe(getConfig(env));
  });

  it("turns lists and switches into values", () => {
    const config = getConfig({
      ...env,
      SESSION_SECRET: " newest , older,, ",
      ADMIN_EMAILS: "Ops@AFX.test, second@afx.test",
      LEADS_RATE_LIMIT: " 5 / 60 / 300 ",
      SITE_URL: "https://afx.test/",
      EMBED_CHECK: "on",
      OAUTH_CLIENT_SECRET: "",
      SUBSIDIARY_VIDEOS: "gaas=abcdefghijk, nope=abcdefghijk",
    } as Env);
    expect(config.sessionSecrets).toEqual(["newest", "older"]);
    expect(config.adminEmails).toEqual(["ops@afx.test", "second@afx.test"]);
    expect(config.leadsRateLimit).toEqual({ attempts: 5, seconds: 60, global: 300 });
    expect(config.siteUrl).toBe("https://afx.test");
    expect(config.embedCheck).toBe(true);
    expect(config.oauth.clientSecret).toBeNull();
    expect(config.videos).toEqual({ gaas: "abcdefghijk" });
    expect(publicConfig({ ...env, SITE_URL: "https://afx.test/" } as Env).siteUrl).toBe("https://afx.test");
  });

  it("names each bad variable and what is wrong with it, never the value", () => {
    expect(problemsOf({ LEADS_RATE_LIMIT: "ten per minute" })).toEqual([
      'LEADS_RATE_LIMIT is not "attempts/seconds", "attempts/seconds/global" or "attempts/seconds/global/store" with positive integers, e.g. "10/600"',
    ]);
    expect(problemsOf({ LEADS_RATE_LIMIT: "0/600" })).toHaveLength(1);
    expect(problemsOf({ EMBED_CHECK: "yes" })).toEqual(['EMBED_CHECK is not "on" or "off"']);
    expect(problemsOf({ ENVIRONMENT: "staging" })).toEqual(['ENVIRONMENT is not "development" or "production"']);
    expect(problemsOf({ SITE_URL: "afx.test" })).toEqual(["SITE_URL is not an absolute URL"]);
    expect(problemsOf({ BLOG_FEED_URL: "ftp://feeds.example/x" })).toEqual([
      "BLOG_FEED_URL is not an http: or https: URL",
    ]);
    expect(problemsOf({ ADMIN_EMAILS: "admin@example.com, not-an-address" })).toEqual([
      "ADMIN_EMAILS lists something that is not an e-mail address",
    ]);
    expect(problemsOf({ CONTACT_EMAIL: "hello" })).toEqual(["CONTACT_EMAIL is not an e-mail address"]);
    expect(problemsOf({ OAUTH_CLIENT_ID: " " })).toEqual(["OAUTH_CLIENT_ID is empty"]);
    expect(problemsOf({ STORE_URL: undefined })).toEqual(["STORE_URL is not set"]);
    // Several at once, each on its own; a secret's value never appears.
    const many = problemsOf({ EMBED_CHECK: "1", LINKEDIN_URL: "linkedin", OAUTH_ISSUER: "s3cr3t-looking-value" });
    expect(many).toHaveLength(3);
    expect(many!.join(" ")).not.toContain("s3cr3t");
    // Secrets may be absent: sign-in and sessions stay off without them.
    expect(problemsOf({ SESSION_SECRET: undefined, OAUTH_CLIENT_SECRET: undefined })).toBeUndefined();
  });

  it("getConfig throws one ConfigError listing the problems", () => {
    const thrown = (() => {
      try {
        getConfig({ ...env, EMBED_CHECK: "maybe", SITE_URL: "nowhere" } as Env);
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems).toEqual([
      "SITE_URL is not an absolute URL",
      'EMBED_CHECK is not "on" or "off"',
    ]);
    expect((thrown as Error).message).toMatch(/^Invalid configuration .*SITE_URL is not an absolute URL; EMBED_CHECK/);
  });

  it("parseRateLimitSpec reads attempts/seconds[/global[/store]] and nothing else", () => {
    expect(parseRateLimitSpec("10/600")).toEqual({ attempts: 10, seconds: 600 });
    expect(parseRateLimitSpec("10/600/50")).toEqual({ attempts: 10, seconds: 600, global: 50 });
    expect(parseRateLimitSpec("10/600/50/4")).toEqual({ attempts: 10, seconds: 600, global: 50, store: 4 });
    for (const bad of [
      "",
      "10",
      "10/",
      "/600",
      "10/600/0",
      "0/600",
      "10/0",
      "-1/600",
      "1.5/600",
      "10/600/5/0",
      "10/600/5/5/5",
    ]) {
      expect(parseRateLimitSpec(bad), bad).toBeNull();
    }
  });
});

describe("the worker with a configuration that does not parse", () => {
  type Incoming = Parameters<typeof worker.fetch>[0];
  const fetchWith = async (vars: Record<string, string>) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${ORIGIN}/`) as Incoming, { ...env, ...vars } as Env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("locally, answers 503 saying which variable to fix", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await fetchWith({ LEADS_RATE_LIMIT: "lots" });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("- LEADS_RATE_LIMIT is not");
    expect(configProblems({ ...env, LEADS_RATE_LIMIT: "lots" } as Env)).toHaveLength(1);
    expect(configProblems(env)).toEqual([]);
  });

  it("in production (or when ENVIRONMENT itself is wrong), tells the visitor nothing about it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const vars of [{ ENVIRONMENT: "production", EMBED_CHECK: "maybe" }, { ENVIRONMENT: "prod" }] as Record<
      string,
      string
    >[]) {
      const res = await fetchWith(vars);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe("This site is not configured yet.");
    }
  });
});
