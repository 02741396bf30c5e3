import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baseURL } from "./browser";
import { PATHS } from "./content-quality";

// HTML validity of the content pages as served: the W3C Nu checker (vnu-jar, needs Java).
describe("W3C Nu HTML checker", () => {
  it("finds no error on any content page", async () => {
    const dir = mkdtempSync(join(tmpdir(), "afx-vnu-"));
    try {
      const files: Record<string, string> = {};
      for (const [i, path] of PATHS.entries()) {
        const file = join(dir, `page-${i}.html`);
        writeFileSync(file, await (await fetch(`${baseURL()}${path}`)).text());
        files[`file:${file}`] = path;
      }
      const jar = join(process.cwd(), "node_modules/vnu-jar/build/dist/vnu.jar");
      const run = spawnSync("java", ["-jar", jar, "--errors-only", "--format", "json", ...Object.keys(files).map((f) => f.slice(5))], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(run.error).toBeUndefined();
      const { messages } = JSON.parse(run.stderr || run.stdout) as { messages: { type: string; url: string; message: string; extract?: string }[] };
      const errors = messages
        .filter((m) => m.type === "error")
        .map((m) => `${files[m.url] ?? m.url}: ${m.message} ${m.extract ?? ""}`.trim());
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
