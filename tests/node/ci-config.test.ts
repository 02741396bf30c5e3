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
    expect(await workflowErrors("bad.yml", ci.replace("runs-on: ubuntu-24.04", "runs-onn: ubuntu-24.04"))).not.toEqual([]);
    expect(await workflowErrors("bad.yml", ci.replace("needs: test", "needs: tests"))).not.toEqual([]);
  });

  it("tests every push and pull request with .ci/run, and deploys main with the API token after the tests", () => {
    const ci = read(".github/workflows/ci.yml");
    expect(ci).toMatch(/^on:\n {2}push:\n {2}pull_request:\n/m);
    expect(ci).toMatch(/run: \.ci\/run/);
    expect(ci).toMatch(/deploy:\n {4}needs: test\n {4}if: github\.event_name == 'push' && github\.ref == 'refs\/heads\/main'/);
    expect(ci).toContain("CLOUDFLARE_API_TOKEN: ${{ secrets.CLOUDFLARE_API_TOKEN }}");
    expect(ci).toContain("CLOUDFLARE_ACCOUNT_ID: ${{ secrets.CLOUDFLARE_ACCOUNT_ID }}");
    expect(ci).toMatch(/run: npm run deploy -- --domains-attached /);
    // The CI image's Node is the project's (.nvmrc).
    expect(ci).toContain(`container: node:${read(".nvmrc").trim()}-`);
  });
});

describe("renovate.json", () => {
  it("is valid against Renovate's schema, and the validator catches a wrong option", () => {
    const { schema, validate } = renovateValidator();
    expect(schema.title).toMatch(/^JSON schema for Renovate \d+\.\d+\.\d+ config files/);
    const config = JSON.parse(read("renovate.json"));
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    // (The schema allows unknown options: only a known option's wrong value fails it.)
    expect(validate({ ...config, schedule: 5 })).toBe(false);
    expect(validate({ ...config, rangeStrategy: "sometimes" })).toBe(false);
  });

  it("groups the Cloudflare toolchain and Remix", () => {
    const rules = JSON.parse(read("renovate.json")).packageRules as { groupName?: string; matchPackageNames?: string[] }[];
    const group = (name: string) => rules.find((r) => r.groupName === name)?.matchPackageNames;
    expect(group("Cloudflare toolchain")).toEqual(expect.arrayContaining(["wrangler", "workerd", "miniflare", "@cloudflare/**"]));
    expect(group("Remix")).toEqual(["@remix-run/**"]);
  });
});
