// The repository's automation validated offline against the schemas its tools publish:
// .github/workflows/*.yml by GitHub's own workflow parser and schema (@actions/workflow-parser,
// what GitHub's editor tooling validates with), renovate.json against Renovate's JSON schema
// (tests/fixtures/schemas/renovate-schema.json, copied unchanged from the `renovate` package of
// the version in its title: `npm pack renovate@<version>`, then package/renovate-schema.json).
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import Ajv from "ajv";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const read = (path: string) => readFileSync(resolve(ROOT, path), "utf8");

async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  if (parsed.value) await convertWorkflowTemplate(parsed.context, parsed.value);
  return parsed.context.errors.getErrors().map((e) => e.message);
}

/** A step or job as GitHub's parser resolves it (its tokens as JSON: expressions as `{ expr }`). */
type Step = { name?: string; uses?: string; run?: string; env?: unknown };
type Job = { id: string; container?: string | { image?: string }; env?: unknown; steps: Step[] };
/** ci.yml as GitHub reads it: the workflow's jobs with their resolved steps. */
async function ciWorkflow(content = read(".github/workflows/ci.yml")): Promise<{ env?: unknown; jobs: Job[] }> {
  const parsed = parseWorkflow({ name: "ci.yml", content }, new NoOperationTraceWriter());
  return JSON.parse(JSON.stringify(await convertWorkflowTemplate(parsed.context, parsed.value!)));
}
/** Every place below `node` (a JSON path) whose value names `needle`. */
function pathsNaming(node: unknown, needle: string, path = ""): string[] {
  if (typeof node === "string") return node.includes(needle) ? [path] : [];
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => pathsNaming(value, needle, `${path}/${key}`));
}
/** The oldest major of each action that runs on Node 24 (`runs.using: node24` in its action.yml). */
const NODE24_FROM: Record<string, number> = {
  "actions/checkout": 5,
  "actions/upload-artifact": 6,
  "actions/download-artifact": 7,
};

type Lock = {
  packages: Record<
    string,
    {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      dependenciesRoot?: never;
    }
  >;
};
/**
 * The packages `npm ci --omit=dev` installs from `lock`: every entry reachable from the root's
 * dependencies (and their dependencies, optional ones and required peers), resolved as Node does.
 */
function productionTree(lock: Lock): Set<string> {
  const pkgs = lock.packages;
  const resolveFrom = (from: string, name: string): string | null => {
    for (let base = from; ;) {
      const path = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (pkgs[path]) return path;
      if (!base) return null;
      const at = base.lastIndexOf("/node_modules/");
      base = at < 0 ? "" : base.slice(0, at);
    }
  };
  const seen = new Set<string>();
  const visit = (from: string, names: string[]) => {
    for (const name of names) {
      const path = resolveFrom(from, name);
      if (!path || seen.has(path)) continue;
      seen.add(path);
      const e = pkgs[path]!;
      const peers = Object.keys(e.peerDependencies ?? {}).filter((p) => !e.peerDependenciesMeta?.[p]?.optional);
      visit(path, [...Object.keys(e.dependencies ?? {}), ...Object.keys(e.optionalDependencies ?? {}), ...peers]);
    }
  };
  visit("", Object.keys(pkgs[""]!.dependencies ?? {}));
  return seen;
}

function renovateValidator() {
  const schema = JSON.parse(read("tests/fixtures/schemas/renovate-schema.json"));
  // `allowComments` is Renovate's own annotation; "regex" is the one format it declares.
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat("regex", true);
  return { schema, validate: ajv.compile(schema) };
}

describe("GitHub Actions workflows", () => {
  const files = readdirSync(resolve(ROOT, ".github/workflows")).filter((f) => /\.ya?ml$/.test(f));

  it("ci.yml exists and every workflow is valid", async () => {
    expect(files).toContain("ci.yml");
    for (const file of files) expect(await workflowErrors(file, read(`.github/workflows/${file}`)), file).toEqual([]);
  });

  it("the validator catches what GitHub would refuse", async () => {
    const ci = read(".github/workflows/ci.yml");
    expect(await workflowErrors("bad.yml", ci.replace("runs-on: ubuntu-24.04", "runs-onn: ubuntu-24.04"))).not.toEqual(
      [],
    );
    expect(await workflowErrors("bad.yml", ci.replace("needs: test", "needs: tests"))).not.toEqual([]);
  });

  it("tests every push and pull request with .ci/run, and deploys main with the API token after the tests", () => {
    const ci = read(".github/workflows/ci.yml");
    expect(ci).toMatch(/^on:\n {2}push:\n {2}pull_request:\n/m);
    expect(ci).toMatch(/run: \.ci\/run/);
    expect(ci).toMatch(
      /deploy:\n {4}needs: test\n {4}if: github\.event_name == 'push' && github\.ref == 'refs\/heads\/main'/,
    );
    expect(ci).toContain("CLOUDFLARE_API_TOKEN: ${{ secrets.CLOUDFLARE_API_TOKEN }}");
    expect(ci).toContain("CLOUDFLARE_ACCOUNT_ID: ${{ secrets.CLOUDFLARE_ACCOUNT_ID }}");
    expect(ci).toMatch(/run: npm run deploy -- --domains-attached /);
    // The CI image's Node is the project's (.nvmrc).
    expect(ci).toContain(`container: node:${read(".nvmrc").trim()}-`);
  });

  it("shows the deploy token and account id to the `npm run deploy` step alone", async () => {
    const ci = read(".github/workflows/ci.yml");
    const workflow = await ciWorkflow(ci);
    const deploy = workflow.jobs.findIndex((j) => j.id === "deploy");
    const step = workflow.jobs[deploy]!.steps.findIndex((s) => /^npm run deploy\b/.test(s.run ?? ""));
    expect(step).toBeGreaterThan(-1);
    for (const secret of ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_ACCOUNT_ID"]) {
      // Once in the file, and that once is the deploy step's env: no job or workflow env, no
      // other step (an install, the build), no action input.
      expect(ci.split(`secrets.${secret}`).length - 1, secret).toBe(1);
      expect(pathsNaming(workflow, `secrets.${secret}`), secret).toEqual([
        expect.stringMatching(new RegExp(`^/jobs/${deploy}/steps/${step}/env/`)),
      ]);
    }
  });

  it("installs the deploy job's dependencies without running their install scripts", async () => {
    const { jobs } = await ciWorkflow();
    const runs = jobs.find((j) => j.id === "deploy")!.steps.flatMap((s) => (s.run ? [s.run] : []));
    const installs = runs.filter((r) => /\bnpm (ci|install|i|rebuild)\b/.test(r));
    expect(installs).not.toEqual([]);
    for (const install of installs) expect(install).toMatch(/^npm (ci|install) .*--ignore-scripts/);
  });

  it("pins every action by commit (its release in a comment, one that runs on Node 24) and the image by digest", async () => {
    const ci = read(".github/workflows/ci.yml");
    const { jobs } = await ciWorkflow(ci);
    const uses = jobs.flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
    expect(uses).not.toEqual([]);
    for (const ref of uses) {
      expect(ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      const [action] = ref.split("@") as [string];
      const comment = ci.match(new RegExp(`uses: ${ref.replace(/[.]/g, "\\.")} # v(\\d+)\\.\\d+\\.\\d+\\n`));
      expect(comment, `${ref}: "# vX.Y.Z" after it`).not.toBeNull();
      expect(action in NODE24_FROM, `${action}: its first Node 24 major is known`).toBe(true);
      expect(Number(comment![1]), action).toBeGreaterThanOrEqual(NODE24_FROM[action]!);
    }
    for (const job of jobs) {
      const image = typeof job.container === "string" ? job.container : job.container?.image;
      expect(image, job.id).toMatch(/^node:\d+-[a-z]+@sha256:[0-9a-f]{64}$/);
    }
  });

  it("the deploy job builds nothing: it takes the test job's build and lock file as an artifact and deploys with --skip-build", async () => {
    const { jobs } = await ciWorkflow();
    const test = jobs.find((j) => j.id === "test")!;
    const deploy = jobs.find((j) => j.id === "deploy")!;
    const upload = test.steps.find((s) => s.name === "Keep the tested build for the deploy");
    expect(upload?.uses).toMatch(/^actions\/upload-artifact@/);
    // After .ci/run (whose npm test builds), and only there.
    expect(test.steps.indexOf(upload!)).toBeGreaterThan(test.steps.findIndex((s) => s.run === ".ci/run"));
    // (The parser drops `with:`: the artifact's name and paths are read from the file.)
    const ci = read(".github/workflows/ci.yml");
    expect(ci).toMatch(/name: production-build\n {10}path: \|\n {12}build\/\n {12}package-lock\.json\n/);
    expect(ci).toMatch(
      /download-artifact@[0-9a-f]{40} # v[\d.]+\n {8}with:\n {10}name: production-build\n {10}path: tested\n/,
    );
    const uses = deploy.steps.flatMap((s) => (s.uses ? [s.uses.split("@")[0]] : []));
    expect(uses).toEqual(["actions/checkout", "actions/download-artifact"]);
    const runs = deploy.steps.flatMap((s) => (s.run ? [s.run] : []));
    for (const run of runs)
      expect(run).not.toMatch(/npm run build|remix|vite|tailwind|\.ci\/run|npm test|npm run (dev|start|bench)/);
    expect(runs).toEqual([
      "cmp tested/package-lock.json package-lock.json && mv tested/build build",
      "node scripts/deploy-deps.mjs --deploy-workspace",
      "npm ci --omit=dev --ignore-scripts --no-audit --no-fund",
      expect.stringMatching(/^npm run deploy -- .*--skip-build$/),
    ]);
  });

  it("the deploy job's install holds the production dependencies, wrangler and esbuild, and no build tool", async () => {
    const { deployManifests, DEPLOY_TOOLS } = await import("../../scripts/deploy-deps.mjs");
    const pkg = JSON.parse(read("package.json"));
    const { lock } = deployManifests(pkg, JSON.parse(read("package-lock.json")));
    const names = new Set([...productionTree(lock)].map((p) => p.slice(p.lastIndexOf("node_modules/") + 13)));
    for (const name of [...DEPLOY_TOOLS, ...Object.keys(JSON.parse(read("package.json")).dependencies)])
      expect(names.has(name), name).toBe(true);
    for (const tool of [
      "vite",
      "@remix-run/dev",
      "tailwindcss",
      "@tailwindcss/vite",
      "rollup",
      "vitest",
      "postcss",
      "@vitejs/plugin-react",
      "playwright-core",
    ])
      expect(names.has(tool), tool).toBe(false);
    // The whole dev tree, for scale: the deploy installs a small part of it.
    expect(names.size).toBeLessThan(Object.keys(JSON.parse(read("package-lock.json")).packages).length / 3);
  });

  it("fails on a known High advisory in a production dependency, before anything deploys", async () => {
    const { jobs } = await ciWorkflow();
    const test = jobs.find((j) => j.id === "test")!;
    expect(test.steps.map((s) => s.run)).toContain("npm audit --omit=dev --audit-level=high");
    expect(read(".github/workflows/ci.yml")).not.toContain("continue-on-error");
  });
});

describe("renovate.json", () => {
  // Compiling Renovate's schema (1 MB) takes seconds on a loaded machine.
  it("is valid against Renovate's schema, and the validator catches a wrong option", { timeout: 30_000 }, () => {
    const { schema, validate } = renovateValidator();
    expect(schema.title).toMatch(/^JSON schema for Renovate \d+\.\d+\.\d+ config files/);
    const config = JSON.parse(read("renovate.json"));
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    // (The schema allows unknown options: only a known option's wrong value fails it.)
    expect(validate({ ...config, schedule: 5 })).toBe(false);
    expect(validate({ ...config, rangeStrategy: "sometimes" })).toBe(false);
  });

  it("groups the Cloudflare toolchain and Remix", () => {
    const rules = JSON.parse(read("renovate.json")).packageRules as {
      groupName?: string;
      matchPackageNames?: string[];
    }[];
    const group = (name: string) => rules.find((r) => r.groupName === name)?.matchPackageNames;
    expect(group("Cloudflare toolchain")).toEqual(
      expect.arrayContaining(["wrangler", "workerd", "miniflare", "@cloudflare/**"]),
    );
    expect(group("Remix")).toEqual(["@remix-run/**"]);
  });

  it("waits at least 3 days after a release, and keeps action commits and image digests current", () => {
    const config = JSON.parse(read("renovate.json"));
    const age = /^(\d+) (day|days|week|weeks)$/.exec(config.minimumReleaseAge ?? "");
    expect(age, `minimumReleaseAge ${config.minimumReleaseAge}`).not.toBeNull();
    const [, amount, unit = ""] = age ?? [];
    expect(Number(amount) * (unit.startsWith("week") ? 7 : 1)).toBeGreaterThanOrEqual(3);
    // No rule shortens it for some packages.
    expect(config.packageRules.filter((rule: object) => "minimumReleaseAge" in rule)).toEqual([]);
    expect(config.extends).toEqual(expect.arrayContaining(["helpers:pinGitHubActionDigests", "docker:pinDigests"]));
  });
});
