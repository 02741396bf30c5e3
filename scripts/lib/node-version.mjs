// Imported first by every npm script's entry: on a Node older than package.json's `engines.node`,
// one line that says what is needed and how to get it, before anything else can fail obscurely.
import { readFileSync } from "node:fs";

const { engines } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const WANTED = engines.node.match(/\d+(\.\d+){0,2}/)[0];

/** The one line to print when `version` is older than the project needs, else null. */
export function nodeProblem(version = process.versions.node) {
  const [have, want] = [version, WANTED].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > (want[i] ?? 0)) return null;
    if ((have[i] ?? 0) < (want[i] ?? 0)) {
      return (
        `✘ This project needs Node.js ${WANTED} or newer (Node 24 LTS); this is v${version}. ` +
        'Install it with `nvm install` (reads .nvmrc), or see README "Requirements".'
      );
    }
  }
  return null;
}

const problem = nodeProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
