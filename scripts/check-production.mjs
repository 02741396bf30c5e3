// `npm run check:production [-- --config <file>] [-- --secrets-file <file>]`: production's
// configuration judged before anything is uploaded (scripts/lib/production-check.mjs). Exits 1
// naming every problem; `npm run deploy` runs it first.
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { parseArgs } from "node:util";
import { productionProblems, readSecretsFile } from "./lib/production-check.mjs";

const { values } = parseArgs({ options: { config: { type: "string" }, "secrets-file": { type: "string" } } });
const secrets = values["secrets-file"] ? readSecretsFile(values["secrets-file"]) : undefined;
const problems = await productionProblems({ config: values.config, secrets });
if (problems.length) {
  console.error(`✘ Production configuration: ${problems.length} problem(s), nothing uploaded:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  secrets
    ? "✔ Production configuration: every rule holds, the secrets file's values included."
    : "✔ Production configuration: every rule holds (secrets' values are judged only with --secrets-file; wrangler refuses an upload while one is not set).",
);
