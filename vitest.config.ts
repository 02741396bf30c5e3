// Integration and unit tests inside workerd (the Workers runtime) with a real local D1 that has
// every migration applied. The worker under test is server.ts over the production server build,
// so `npm run build` must run first (npm test does).
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { renderStartingDocuments } from "./scripts/fact-sheets";
import { aliases } from "./scripts/lib/alias.mjs";
import { TEST_VENTURE_DOMAINS } from "./tests/fixtures/venture-domains";

export default defineConfig({
  plugins: [
    // The local OpenID provider and SMTP server run in Node (tests/worker/global-setup.ts); the
    // worker reaches them over loopback like any provider.
    cloudflareTest(async ({ inject }) => ({
      main: "./worker/server.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          SESSION_SECRET: "test-session-secret",
          // Its own key, then the session secret as links and entries of before issue 25 were signed.
          MAIL_SECRET: "test-mail-secret,test-session-secret",
          OAUTH_CLIENT_SECRET: "test-client-secret",
          SITE_URL: "https://afx.test",
          OAUTH_ISSUER: inject("oidcIssuer"),
          SMTP_HOST: inject("smtpHost"),
          SMTP_PORT: inject("smtpPort"),
          VENTURE_DOMAINS: TEST_VENTURE_DOMAINS,
          // No outbound requests to the ventures' sites from tests (checkEmbeddable is tested alone).
          EMBED_CHECK: "off",
          // 12 MiB: an upload over R2's 5 MiB parts, and one over the limit, stay cheap to send.
          DOCUMENT_MAX_BYTES: String(12 * 1024 * 1024),
          TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url))),
          // The starting documents, drawn once here; each file's setup seeds the library with them.
          TEST_STARTING_DOCUMENTS: (await renderStartingDocuments()).map(({ bytes, ...file }) => ({
            ...file,
            base64: Buffer.from(bytes).toString("base64"),
          })),
        },
        // A second database to play a read replica that lags the primary (tests/worker/revocation.test.ts).
        d1Databases: { REPLICA: "replica-of-db" },
        // The Email Service's binding (MAIL_TRANSPORT = "email-service"), replaced by a recording
        // fake that answers as it does: the tests read what it received (tests/worker/fixtures).
        // wrangler.toml's simulated binding of the same name is left out.
        email: { send_email: [] },
        serviceBindings: { EMAIL: { name: "email-fake", entrypoint: "RecordingEmail" } },
        workers: [
          {
            name: "email-fake",
            modules: true,
            scriptPath: "./tests/worker/fixtures/email-fake.mjs",
            compatibilityDate: "2026-11-01",
          },
        ],
      },
    })),
  ],
  resolve: { alias: aliases() },
  test: {
    include: ["tests/worker/**/*.test.ts"],
    setupFiles: ["./tests/worker/apply-migrations.ts"],
    globalSetup: ["./tests/worker/global-setup.ts"],
    // One workerd per pool worker, shared by the files it runs (isolate: false): a workerd of its
    // own for each file (vitest's default) spent ~5 s of CPU starting it and loading the server
    // build, 335 s of CPU for the suite against 82 s shared (730 s against 194 s wall, same loaded
    // machine). What the files would share, each file's setup takes back (apply-migrations.ts:
    // every D1 table emptied, a Cache API of its own). Three at a time: npm test runs the Node
    // suite beside it.
    maxWorkers: 3,
    isolate: false,
    // A test that passes in 1-2 s on a quiet machine took 5-6 s at a load average of 20 (other
    // suites beside it): 5 s (vitest's default) made such runs fail at random.
    testTimeout: 15_000,
    hookTimeout: 30_000,
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
  },
});
