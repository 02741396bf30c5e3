import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureDevVars } from "../../scripts/lib/config.mjs";
import { freePort, migrate, tailOf } from "../../scripts/lib/local-worker.mjs";
import { superviseWorker } from "../../scripts/lib/worker-watchdog.mjs";
import { startLocalMailIfNeeded } from "../../scripts/lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";
import { sampleFeedXml, startFeedServer } from "../../scripts/lib/sample-feed.mjs";
import { chromiumPath } from "./chromium";
import { CONTENT_VARS } from "./content-fixtures";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    persistTo: string;
    /** The local inbox's web address (tests/fixtures/inbox.ts reads it). */
    inboxURL: string;
  }
}

export default async function setup(project: TestProject) {
  chromiumPath(); // fail fast, with instructions, when there is no browser
  ensureDevVars();
  // The run's own directory: the local D1 and wrangler's logs (kept when something failed).
  const dir = mkdtempSync(join(tmpdir(), "afx-e2e-"));
  const persistTo = join(dir, "d1");
  mkdirSync(persistTo);
  const logFile = join(dir, "wrangler.log");
  migrate(persistTo);
  const provider = await startLocalProviderIfNeeded();
  const port = await freePort();
  // The blog reads a local feed whose cover images live on the site itself (CSP img-src 'self').
  const feed = await startFeedServer({
    respond: () => ({ body: sampleFeedXml({ imageUrl: `http://localhost:${port}/favicon.svg` }) }),
  });
  // Every browser is 127.0.0.1: the per-client signup limit is for the worker tests to prove.
  const vars: Record<string, string> = {
    SITE_URL: `http://localhost:${port}`,
    BLOG_FEED_URL: feed.url,
    LEADS_RATE_LIMIT: "1000/60",
    ...CONTENT_VARS,
  };
  if (provider) vars.OAUTH_ISSUER = provider.issuer;
  // Free ports: other checkouts' runs and `npm start` may hold the defaults.
  const mail = await startLocalMailIfNeeded({ smtpPort: 0, webPort: 0 });
  if (!mail) throw new Error("SMTP_HOST/SMTP_PORT name a real server: unset them for the browser tests");
  vars.SMTP_HOST = mail.smtpHost;
  vars.SMTP_PORT = String(mail.smtpPort);
  // Watched: if wrangler dev or its workerd dies, the watchdog says why and starts it again.
  const worker = await superviseWorker({
    label: "e2e worker",
    port,
    persistTo,
    vars,
    logFile,
    stdio: process.env.E2E_VERBOSE ? "inherit" : "ignore",
  });
  project.provide("baseURL", worker.url);
  project.provide("persistTo", persistTo);
  project.provide("inboxURL", mail.inboxUrl);
  return async () => {
    await worker.stop();
    await provider?.stop();
    await mail.stop();
    await feed.stop();
    const failed = project.vitest.state.getTestModules().reduce((n, m) => n + [...m.children.allTests("failed")].length, 0);
    const trouble = worker.summary();
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
