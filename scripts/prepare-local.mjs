// Before `npm run dev`: .dev.vars exists and the local D1 has every migration.
import { resolve } from "node:path";
import { ensureDevVars, ROOT } from "./lib/config.mjs";
import { migrate } from "./lib/local-worker.mjs";

ensureDevVars();
migrate(resolve(ROOT, ".wrangler/state"));
