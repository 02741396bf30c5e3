// Node.js compatibility is on by default at wrangler.toml's compatibility date; its flag
// `nodejs_compat_do_not_populate_process_env` keeps the secrets and variables out of
// `process.env`, where any bundled dependency could read (or log) them.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("process.env", () => {
  it("holds no secret and no variable of the worker", () => {
    expect(env.SESSION_SECRET).toBeTruthy();
    const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    for (const name of ["SESSION_SECRET", "MAIL_SECRET", "OAUTH_CLIENT_SECRET", "SITE_URL", "SMTP_HOST"])
      expect(processEnv[name], name).toBeUndefined();
  });
});
