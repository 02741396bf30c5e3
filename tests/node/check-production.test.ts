// `npm run check:production`: the worker's own rules over [env.production] of wrangler.toml, as
// wrangler reads it, every problem at once and before anything is uploaded.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { productionProblems } from "../../scripts/lib/production-check.mjs";
import {
  GOOD_PUBLIC_VARS,
  GOOD_SECRETS,
  GOOD_SMTP_VARS,
  goodProductionConfig,
  withProductionVars,
} from "../fixtures/production-config";

const ROOT = resolve(__dirname, "../..");
const check = (...args: string[]) =>
  spawnSync(process.execPath, [resolve(ROOT, "scripts/check-production.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
const listed = (stderr: string) =>
  stderr
    .split("\n")
    .filter((l) => l.startsWith("  - "))
    .map((l) => l.slice(4));

// Each case runs the script (wrangler and Vite start in it): seconds on a busy machine.
describe("npm run check:production", { timeout: 60_000 }, () => {
  it("refuses today's committed placeholders, naming each one", () => {
    const run = check();
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^✘ Production configuration: 9 problem\(s\), nothing uploaded:/m);
    expect(listed(run.stderr)).toEqual([
      expect.stringMatching(/^ADMIN_EMAILS /),
      expect.stringMatching(/^OAUTH_CLIENT_ID /),
      expect.stringMatching(/^CONTACT_EMAIL /),
      expect.stringMatching(/^INVESTOR_EMAIL /),
      expect.stringMatching(/^MAIL_FROM /),
      expect.stringMatching(/^STORE_URL /),
      expect.stringMatching(/^LINKEDIN_URL /),
      expect.stringMatching(/^CONTACT_PHONE /),
      expect.stringMatching(/^the DB binding's database_id is the placeholder/),
    ]);
  });

  it("passes a good production configuration (tests/fixtures/production-vars.ts), with and without its secrets file", () => {
    const config = goodProductionConfig(ROOT);
    const secrets = join(dirname(config), "secrets.json");
    writeFileSync(secrets, JSON.stringify(GOOD_SECRETS));
    for (const run of [check("--config", config), check("--config", config, "--secrets-file", secrets)]) {
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/^✔ Production configuration: every rule holds/);
      expect(run.status).toBe(0);
    }
  });

  it("judges a secrets file by the worker's rules, and names a secret it lacks", () => {
    const config = goodProductionConfig(ROOT);
    const secrets = join(dirname(config), ".secrets");
    writeFileSync(
      secrets,
      `SESSION_SECRET="local-development-session-secret-change-me"\nMAIL_SECRET=short\nOAUTH_CLIENT_SECRET=x\n`,
    );
    const run = check("--config", config, "--secrets-file", secrets);
    expect(run.status).toBe(1);
    expect(listed(run.stderr)).toEqual([
      "SESSION_SECRET is the example value of .dev.vars.example",
      "MAIL_SECRET is shorter than 32 characters",
    ]);
  });

  it("names a value that does not parse, and what only a deploy can get wrong", () => {
    const good = goodProductionConfig(ROOT);
    const text = withProductionVars(readFileSync(good, "utf8"), { LEADS_RATE_LIMIT: "lots" })
      .replace("workers_dev = false", "workers_dev = true")
      .replace(/^preview_urls = false\n/m, "")
      .replace(/\{ pattern = "www\.afxholdinggroup\.com", custom_domain = true \},\n/, "")
      .replace(/(\[env\.production\.secrets\]\nrequired = )\[[^\]]*\]/, '$1["SESSION_SECRET"]');
    writeFileSync(good, text);
    const run = check("--config", good);
    expect(run.status).toBe(1);
    expect(listed(run.stderr)).toEqual([
      expect.stringMatching(/^LEADS_RATE_LIMIT is not "attempts\/seconds"/),
      "[env.production.secrets] required does not list MAIL_SECRET, OAUTH_CLIENT_SECRET",
      expect.stringMatching(/^workers_dev is not false/),
      expect.stringMatching(/^preview_urls is not false/),
      "routes has no Custom Domain for www.afxholdinggroup.com (redirected to the apex)",
    ]);
  });
  it("refuses a production configuration without a CPU limit per request", () => {
    const good = goodProductionConfig(ROOT);
    const text = readFileSync(good, "utf8");
    expect(text).toMatch(/^\[env\.production\.limits\]\ncpu_ms = \d+\n/m);
    writeFileSync(good, text.replace(/^\[env\.production\.limits\]\ncpu_ms = \d+\n/m, ""));
    const run = check("--config", good);
    expect(run.status).toBe(1);
    expect(listed(run.stderr)).toEqual([expect.stringMatching(/^\[env\.production\.limits\] cpu_ms is not set/)]);
    // Nor one above the platform's 5 minutes.
    writeFileSync(good, text.replace(/^cpu_ms = \d+$/m, "cpu_ms = 900000"));
    expect(listed(check("--config", good).stderr)).toEqual([
      expect.stringMatching(/^\[env\.production\.limits\] cpu_ms/),
    ]);
  });
});

describe("npm run check:production and the document library", { timeout: 60_000 }, () => {
  it("refuses a production configuration without its DOCUMENTS bucket", async () => {
    const good = goodProductionConfig(ROOT);
    const text = readFileSync(good, "utf8");
    expect(await productionProblems({ config: good })).toEqual([]);
    const bucket = /^\[\[env\.production\.r2_buckets\]\]\nbinding = "DOCUMENTS"\nbucket_name = "[^"]+"\n/m;
    expect(text).toMatch(bucket);
    writeFileSync(good, text.replace(bucket, ""));
    expect(await productionProblems({ config: good })).toEqual([
      expect.stringMatching(/^\[\[env\.production\.r2_buckets\]\] has no DOCUMENTS bucket/),
    ]);
  });
});

describe("npm run check:production and the mail transports", { timeout: 60_000 }, () => {
  const variant = (vars: Record<string, string>, edit: (text: string) => string = (t) => t) => {
    const file = goodProductionConfig(ROOT, vars);
    writeFileSync(file, edit(readFileSync(file, "utf8")));
    return file;
  };

  it("the Email Service: the binding allows MAIL_FROM's address alone; no SMTP variable or password; the events queue has a consumer", async () => {
    const otherSender = variant(GOOD_PUBLIC_VARS, (t) =>
      t.replace(
        'allowed_sender_addresses = ["newsletter@afxholdinggroup.com"]',
        'allowed_sender_addresses = ["newsletter@afxholdinggroup.com", "ceo@afxholdinggroup.com"]',
      ),
    );
    expect(await productionProblems({ config: otherSender })).toEqual([
      "[[env.production.send_email]] EMAIL's allowed_sender_addresses is not exactly MAIL_FROM's address newsletter@afxholdinggroup.com",
    ]);
    const leftovers = variant({ ...GOOD_SMTP_VARS, MAIL_TRANSPORT: "email-service" }, (t) =>
      t.replace(/(\[env\.production\.secrets\]\nrequired = \[)/, '$1"SMTP_PASSWORD", '),
    );
    expect(await productionProblems({ config: leftovers, secrets: { ...GOOD_SECRETS, SMTP_PASSWORD: "x" } })).toEqual([
      'SMTP_HOST, SMTP_SECURITY, SMTP_PORT, SMTP_USER set with MAIL_TRANSPORT = "email-service" (SMTP is not used: remove them)',
      'SMTP_PASSWORD is declared or supplied with MAIL_TRANSPORT = "email-service" (not used: remove it)',
    ]);
    const noBinding = variant(GOOD_PUBLIC_VARS, (t) =>
      t
        .replace(/\[\[env\.production\.send_email\]\]\nname = "EMAIL"\n.*\n/, "")
        .replace(/queue = "afx-mail-events-production"/, 'queue = "other-events"'),
    );
    expect(await productionProblems({ config: noBinding })).toEqual([
      'MAIL_TRANSPORT is "email-service" and the worker has no EMAIL binding ([[env.production.send_email]])',
      "no consumer for the mail events queue (afx-mail-events-production: bounces and complaints would go unread)",
    ]);
  });

  it("SMTP: its settings and SMTP_PASSWORD, as before", async () => {
    const smtp = variant(GOOD_SMTP_VARS, (t) =>
      t.replace(/(\[env\.production\.secrets\]\nrequired = \[[^\]]*)\]/, '$1, "SMTP_PASSWORD"]'),
    );
    expect(
      await productionProblems({ config: smtp, secrets: { ...GOOD_SECRETS, SMTP_PASSWORD: "a-provider-password" } }),
    ).toEqual([]);
    expect(await productionProblems({ config: smtp, secrets: GOOD_SECRETS })).toEqual([
      "SMTP_PASSWORD is not in the secrets file",
    ]);
    const undeclared = variant({ ...GOOD_SMTP_VARS, SMTP_HOST: "127.0.0.1" });
    expect(await productionProblems({ config: undeclared })).toEqual([
      "SMTP_HOST is empty, loopback or an example host",
      "[env.production.secrets] required does not list SMTP_PASSWORD",
    ]);
  });
});

describe("scripts/lib/production-check.mjs in a deploy's own process", () => {
  it(
    "leaves NODE_ENV as it found it (Vite sets it; the build and wrangler deploy after it read it)",
    { timeout: 60_000 },
    async () => {
      const before = process.env.NODE_ENV;
      delete process.env.NODE_ENV;
      try {
        expect(await productionProblems({ config: goodProductionConfig(ROOT) })).toEqual([]);
        expect(process.env.NODE_ENV).toBeUndefined();
      } finally {
        process.env.NODE_ENV = before;
      }
    },
  );
});
