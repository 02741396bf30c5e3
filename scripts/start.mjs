// npm start: production build, local D1 migrated, local sign-in provider, wrangler dev on PORT.
import { resolve } from "node:path";
import { ensureDevVars, ROOT } from "./lib/config.mjs";
import { build, migrate, startWorker } from "./lib/local-worker.mjs";
import { startLocalProviderIfNeeded } from "./lib/local-oidc.mjs";

const port = Number(process.env.PORT || 8787);
ensureDevVars();
if (process.env.SKIP_BUILD !== "1") build();
const persistTo = resolve(ROOT, ".wrangler/state");
migrate(persistTo);
const provider = await startLocalProviderIfNeeded();
const vars = { SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}` };
if (provider) vars.OAUTH_ISSUER = provider.issuer;
const worker = await startWorker({ port, persistTo, vars });
console.log(`\n  AFX Holding Group is running at ${worker.url}\n`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await worker.stop();
    await provider?.stop();
    process.exit(0);
  });
}
worker.child.on("exit", (code) => process.exit(code ?? 0));
