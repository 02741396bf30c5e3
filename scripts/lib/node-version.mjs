// Imported first by every npm script's entry: on a Node older than package.json's `engines.node`,
// one line that says what is needed and how to get it, before anything else can fail obscurely.
import { readFileSync } from "node:fs";

const { engines } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const [wanted] = engines.node.match(/\d+(\.\d+){0,2}/);
const newer = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return true;
};
if (!newer(process.versions.node, wanted)) {
  console.error(
    `✘ This project needs Node.js ${wanted} or newer (Node 24 LTS); this is ${process.version}. ` +
      "Install it with `nvm install` (reads .nvmrc), or see README \"Requirements\".",
  );
  process.exit(1);
}
