// Every advisory known against what ships has its verdict in decision 103's table; a range whose
// verdict is "reachable" or "not installed" must hold no version the lock file installs (the lock
// file is what `npm ci` installs, here and in the deploy job).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");

interface Advisory {
  id: string;
  verdict: string;
  affected: { name: string; range: string }[];
}

/** The table's rows: `| GHSA-… | \`pkg\` \`range\`; … | what | verdict | why |`. */
function advisories(): Advisory[] {
  return read("docs/decisions/103-advisories.md")
    .split("\n")
    .filter((line) => line.startsWith("| GHSA-"))
    .map((line) => {
      const [id = "", affected = "", , verdict = ""] = line.split(" | ").map((cell) => cell.replace(/^\| /, ""));
      return {
        id: id.split(" ")[0]!,
        verdict: verdict.trim(),
        affected: [...affected.matchAll(/`([^`]+)` `([^`]+)`/g)].map(([, name = "", range = ""]) => ({ name, range })),
      };
    });
}

/** Every package version the lock file installs, nested copies included. */
function lockedVersions(name: string): string[] {
  const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version?: string }> };
  return Object.entries(lock.packages)
    .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
    .map(([, entry]) => entry.version ?? "");
}

describe("decision 103's advisories", () => {
  const table = advisories();

  it("lists GHSA-jjmj-jmhj-qwj2 among the others, each with a package, a valid range and a known verdict", () => {
    expect(table.map((a) => a.id)).toContain("GHSA-jjmj-jmhj-qwj2");
    expect(table.length).toBeGreaterThanOrEqual(6);
    for (const a of table) {
      expect(a.affected.length, a.id).toBeGreaterThan(0);
      for (const { range } of a.affected) expect(semver.validRange(range), `${a.id} ${range}`).not.toBeNull();
      expect(["reachable", "not installed", "bounded", "not reachable"], a.id).toContain(a.verdict);
    }
  });

  it("no installed version falls in a range marked reachable or not installed", () => {
    const checked = table.filter((a) => a.verdict === "reachable" || a.verdict === "not installed");
    expect(checked.length).toBeGreaterThan(0);
    for (const a of checked)
      for (const { name, range } of a.affected)
        for (const version of lockedVersions(name))
          expect(semver.satisfies(version, range), `${name}@${version} is inside ${a.id} (${range})`).toBe(false);
  });

  it("react-router and react-router-dom are installed at 6.30.6 or later, one copy each", () => {
    for (const name of ["react-router", "react-router-dom"]) {
      const versions = lockedVersions(name);
      expect(versions, name).toHaveLength(1);
      expect(semver.gte(versions[0]!, "6.30.6"), `${name}@${versions[0]}`).toBe(true);
    }
    expect(lockedVersions("@remix-run/router")).toHaveLength(1);
  });

  it("the check itself catches a vulnerable version", () => {
    const jjmj = table.find((a) => a.id === "GHSA-jjmj-jmhj-qwj2")!;
    expect(jjmj.verdict).toBe("reachable");
    expect(jjmj.affected.some(({ range }) => semver.satisfies("6.30.4", range))).toBe(true);
  });
});
