// Cache-Control's no-store values are spelled once, in app/utils/no-store.ts: read from the source,
// so a new answer that writes its own string fails here rather than drifting from the others.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const APP = fileURLToPath(new URL("../../app", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("no-store", () => {
  it("no module but app/utils/no-store.ts spells a no-store value", () => {
    const spelled = sources(APP)
      .filter((path) => /["'](private, )?no-store["']/.test(readFileSync(path, "utf8")))
      .map((path) => relative(APP, path));
    expect(spelled).toEqual(["utils/no-store.ts"]);
  });
});
