declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The starting documents (scripts/fact-sheets.ts), their bytes in base64 (tests/fixtures/workers-pool.ts). */
    TEST_STARTING_DOCUMENTS: (Omit<import("~/features/documents/starting.server").StartingFile, "bytes"> & {
      base64: string;
    })[];
    /** A read replica's stand-in, as far behind the primary (DB) as a test makes it (tests/fixtures/workers-pool.ts). */
    REPLICA: D1Database;
    // Secrets are optional in the worker's Env (production alone requires them: wrangler.toml
    // [env.production.secrets]); the tests always bind these (tests/fixtures/workers-pool.ts).
    SESSION_SECRET: string;
    MAIL_SECRET: string;
    OAUTH_CLIENT_SECRET: string;
  }
}

// The SMTP login's password: read only with MAIL_TRANSPORT = "smtp", so `wrangler types` (which
// takes production's required secrets, the Email Service's) leaves it out; tests set it.
interface Env {
  SMTP_PASSWORD?: string;
}
