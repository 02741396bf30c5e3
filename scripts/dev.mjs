// npm run dev: the Vite dev server with HMR, with what `npm start` sets up around the worker:
// .dev.vars, the local D1 migrated, the local sign-in provider and SMTP server with its inbox.
// Arguments go to `remix vite:dev`. Mail goes out right after each request (there is no Cron
// Trigger under Vite; `npm start` runs one).
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { ensureDevVars, ROOT, seedVars } from "./lib/config.mjs";
import { startLocalMailIfNeeded } from "./lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "./lib/local-oidc.mjs";
import { migrate, stopChild } from "./lib/local-worker.mjs";

ensureDevVars();
migrate(resolve(ROOT, ".wrangler/state"), seedVars());
const provider = await startLocalProviderIfNeeded();
const mail = await startLocalMailIfNeeded();
// Every local port, the fallbacks too (Vite prints its own).
if (mail) console.log(`\n  Local inbox: ${mail.inboxUrl} (every e-mail the site sends; SMTP on port ${mail.smtpPort})`);
if (provider) console.log(`  Local sign-in provider: ${provider.issuer} (any e-mail signs in)`);
console.log("");
// vite.config.ts lets the process environment override wrangler.toml, as `npm start` does: the
// provider's issuer reaches the worker code that way when 9400 was taken.
const env = {
  ...process.env,
  ...(provider ? { OAUTH_ISSUER: provider.issuer } : {}),
  ...(mail ? { SMTP_HOST: mail.smtpHost, SMTP_PORT: String(mail.smtpPort) } : {}),
};
const vite = spawn(resolve(ROOT, "node_modules/.bin/remix"), ["vite:dev", ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: "inherit",
  env,
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await stopChild(vite);
    await provider?.stop();
    await mail?.stop();
    process.exit(0);
  });
}
vite.on("exit", async (code) => {
  await provider?.stop();
  await mail?.stop();
  process.exit(code ?? 0);
});
