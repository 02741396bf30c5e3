// The deploy job's install (.github/workflows/ci.yml; docs/decisions/061-deploy-token.md): only
// what `npm run deploy` runs, so no build tool (Vite, Remix's compiler, Tailwind, Rollup, their
// plugins) is ever on disk where the API token is. It turns the tools the deploy runs (wrangler,
// and esbuild, which check:production bundles the worker's rules with) into production
// dependencies of this workspace's package.json and of the lock file's root entry, changing no
// version; then `npm ci --omit=dev --ignore-scripts` installs the production dependencies and
// those two, exactly as the tested lock file pins them. It rewrites package.json: run it only in
// the deploy job's fresh workspace (hence the required --deploy-workspace).
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

/** What `npm run deploy` runs besides the production dependencies (which the bundle needs). */
export const DEPLOY_TOOLS = ["wrangler", "esbuild"];

/** The manifest and the lock file with DEPLOY_TOOLS moved from devDependencies to dependencies. */
export function deployManifests(pkg, lock) {
  const root = lock.packages[""];
  for (const name of DEPLOY_TOOLS) {
    const version = pkg.devDependencies?.[name];
    if (!version || root.devDependencies?.[name] !== version)
      throw new Error(`${name} is not a devDependency of package.json and the lock file alike`);
    for (const manifest of [pkg, root]) {
      manifest.dependencies = { ...manifest.dependencies, [name]: version };
      delete manifest.devDependencies[name];
    }
  }
  return { pkg, lock };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { "deploy-workspace": { type: "boolean", default: false } } });
  if (!values["deploy-workspace"]) {
    console.error("deploy-deps: rewrites package.json and package-lock.json; pass --deploy-workspace (CI only).");
    process.exit(1);
  }
  const read = (name) => JSON.parse(readFileSync(resolve(name), "utf8"));
  const { pkg, lock } = deployManifests(read("package.json"), read("package-lock.json"));
  writeFileSync(resolve("package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(resolve("package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`deploy-deps: ${DEPLOY_TOOLS.join(", ")} installed with the production dependencies`);
}
