// The import aliases, declared once: tsconfig.json "paths" (TypeScript reads only that), turned
// into absolute directories for Vite, vitest and esbuild (vite.config.ts, the vitest configs,
// bench/), so `~` cannot point somewhere else in one of them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../../", import.meta.url);

/** `{ "~": "/abs/app" }` from `"paths": { "~/*": ["./app/*"] }`. @returns {Record<string, string>} */
export function aliases() {
  /** @type {{ compilerOptions: { paths: Record<string, string[]> } }} */
  const tsconfig = JSON.parse(readFileSync(new URL("tsconfig.json", ROOT), "utf8"));
  return Object.fromEntries(
    Object.entries(tsconfig.compilerOptions.paths).map(([from, [to]]) => [
      from.replace(/\/\*$/, ""),
      fileURLToPath(new URL(to.replace(/\/\*$/, ""), ROOT)),
    ]),
  );
}
