import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureDevVars, ROOT } from "../../scripts/lib/config.mjs";
import { freePort, migrate, run, startWorker, tailOf } from "../../scripts/lib/local-worker.mjs";
import { startLocalMailIfNeeded } from "../../scripts/lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";
import { sampleFeedXml, startFeedServer } from "../../scripts/lib/sample-feed.mjs";
import { launchServer } from "./browser";
import { CONTENT_VARS, eventFixtureSql } from "./content-fixtures";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    persistTo: string;
    /** The local inbox's web address (tests/fixtures/inbox.ts reads it). */
    inboxURL: string;
    /** The shared Chromium's address (browser.ts's launch connects to it). */
    browserWSEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  // First: without Chromium, fail at once with instructions (chromium.ts).
  const browser = await launchServer();
  ensureDevVars();
  // The run's own directory: the local D1 and wrangler's logs (kept when something failed).
  const dir = mkdtempSync(join(tmpdir(), "afx-e2e-"));
  const persistTo = join(dir, "d1");
  mkdirSync(persistTo);
  const logFile = join(dir, "wrangler.log");
  // The ventures are seeded with the server's own domains and video (CONTENT_VARS).
  migrate(persistTo, CONTENT_VARS);
  // A published event, so the pages that show one are checked with it (content-fixtures.ts).
  run(
    join(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--command", eventFixtureSql()],
    { env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "ignore", "inherit"] },
  );
  const provider = await startLocalProviderIfNeeded();
  // The worker's port is taken last, right before wrangler binds it: a server started after
  // freePort() may be handed the same port (the feed's and maildev's listen on port 0), and
  // wrangler then exits while the tests talk to that server.
  let port = 0;
  // The blog reads a local feed whose cover images live on the site itself (CSP img-src 'self').
  const feed = await startFeedServer({
    respond: () => ({ body: sampleFeedXml({ imageUrl: `http://localhost:${port}/favicon.svg` }) }),
  });
  // Free ports: other checkouts' runs and `npm start` may hold the defaults.
  const mail = await startLocalMailIfNeeded({ smtpPort: 0, webPort: 0 });
  if (!mail) throw new Error("SMTP_HOST/SMTP_PORT name a real server: unset them for the browser tests");
  port = await freePort();
  // Every browser is 127.0.0.1: the per-client signup limit is for the worker tests to prove.
  const vars: Record<string, string> = {
    SITE_URL: `http://localhost:${port}`,
    BLOG_FEED_URL: feed.url,
    LEADS_RATE_LIMIT: "1000/60",
    ...CONTENT_VARS,
    // A second admin for the sign-in round trip: other files sign in as admin@example.com without
    // a name at the same time, which would rename it under that test.
    ADMIN_EMAILS: "admin@example.com,ada.admin@example.com",
  };
  if (provider) vars.OAUTH_ISSUER = provider.issuer;
  vars.SMTP_HOST = mail.smtpHost;
  vars.SMTP_PORT = String(mail.smtpPort);
  const worker = await startWorker({
    port,
    persistTo,
    // As deployed: React's production server build (wrangler dev's default is its development
    // build, slower to render on every page of the run).
    production: true,
    vars,
    logFile,
    stdio: process.env.E2E_VERBOSE ? "inherit" : "ignore",
  });
  // Its death would fail every later test with "connection refused": say when and why, at once.
  let stopping = false;
  worker.child.once("exit", (code, signal) => {
    if (!stopping)
      console.error(`\n[e2e worker] ✘ wrangler dev exited (${signal ?? code}) during the run; its log: ${logFile}`);
  });
  project.provide("baseURL", worker.url);
  project.provide("persistTo", persistTo);
  project.provide("inboxURL", mail.inboxUrl);
  project.provide("browserWSEndpoint", browser.wsEndpoint());
  return async () => {
    stopping = true;
    const died = worker.child.exitCode !== null || worker.child.signalCode !== null;
    await browser.close();
    await worker.stop();
    await provider?.stop();
    await mail.stop();
    await feed.stop();
    const failed = project.vitest.state
      .getTestModules()
      .reduce((n, m) => n + [...m.children.allTests("failed")].length, 0);
    const proxyErrors = proxyErrorLines(logFile);
    const trouble = [
      died ? "wrangler dev died during the run." : "",
      proxyErrors.length
        ? `${proxyErrors.length} request(s) failed inside wrangler dev:\n${proxyErrors.join("\n")}`
        : "",
    ]
      .filter(Boolean)
      .join("\n");
    console.log(`\n[e2e worker] wrangler dev: ${proxyErrors.length} failed or retried request(s) in its log`);
    if (failed) {
      // Why, in CI's output: the end of wrangler's log (its errors, the runtime's crash report).
      console.error(`\n[e2e worker] ${failed} test(s) failed. The end of ${logFile}:`);
      console.error(tailOf(logFile).replace(/^/gm, "    | "));
    }
    if (trouble) console.error(`\n[e2e worker] ${trouble}`);
    if (failed || trouble) {
      console.error(`[e2e worker] Logs kept in ${dir} (wrangler.log, wrangler.debug.log).`);
      rmSync(persistTo, { recursive: true, force: true });
    } else {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** wrangler dev's own failures in its log: a request its proxy could not deliver, or an error it printed. */
function proxyErrorLines(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => /restarted mid-request|Error inside ProxyWorker|\[ERROR\]/.test(line))
    .map((line) => `    | ${line.trim()}`);
}
