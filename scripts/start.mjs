// npm start: production build, local D1 migrated, local sign-in provider, local SMTP server and
// inbox, wrangler dev on PORT, and the Cron Trigger's jobs every minute as in production.
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { resolve } from "node:path";
import { ensureDevVars, ROOT, seedVars } from "./lib/config.mjs";
import { build, migrate, startWorker, triggerScheduled } from "./lib/local-worker.mjs";
import { startLocalMailIfNeeded } from "./lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "./lib/local-oidc.mjs";

const port = Number(process.env.PORT || 8787);
ensureDevVars();
if (process.env.SKIP_BUILD !== "1") build();
const persistTo = resolve(ROOT, ".wrangler/state");
// The seed sees the variables the server will (the environment over .dev.vars).
migrate(persistTo, seedVars());
const provider = await startLocalProviderIfNeeded();
const vars = { SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}` };
if (provider) vars.OAUTH_ISSUER = provider.issuer;
const mail = await startLocalMailIfNeeded();
if (mail) Object.assign(vars, { SMTP_HOST: mail.smtpHost, SMTP_PORT: String(mail.smtpPort) });
const worker = await startWorker({ port, persistTo, vars });
console.log(`\n  AFX Holding Group is running at ${worker.url}`);
// Every local port, the fallbacks too: a default that was taken moves a service elsewhere.
if (mail) console.log(`  Local inbox: ${mail.inboxUrl} (every e-mail the site sends; SMTP on port ${mail.smtpPort})`);
if (provider) console.log(`  Local sign-in provider: ${provider.issuer} (any e-mail signs in)`);
console.log("");
// wrangler dev runs no Cron Trigger by itself: its test endpoint does, once a minute.
const cron = setInterval(() => triggerScheduled(worker.url).catch(() => {}), 60_000);
cron.unref();

// One way out, whichever comes first: the maildev child must not outlive this process.
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  clearInterval(cron);
  await Promise.all([worker.stop(), provider?.stop(), mail?.stop()]);
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => shutdown(0));
worker.child.on("exit", (code) => shutdown(code ?? 0));
