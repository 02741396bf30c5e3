// `import { Menu, X } from "lucide-react"` becomes one small module per icon, made
// here from the icon's drawing in the package (app/components/ui/lucide-icon.ts renders it).
// - Bytes: through the package index every chunk that names an icon depended on every icon the app
//   uses, so Rollup's chunking (the shell chunk above all, see shell-chunk.ts) could not tell which
//   icons a chunk needs; and lucide's runtime that rebuilds each drawing on every render goes too.
// - Time: an icon is a ready-made set of React elements, not rebuilt attribute by attribute on
//   every render (server) and hydration (browser).
// Source files keep the ordinary named imports and lucide-react's types.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g;
const PREFIX = "virtual:lucide-icon/";

function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve("lucide-react/package.json"));
}

/** Every name the package index exports for an icon → the icon's file name ("chevron-down"). */
function iconFiles(dir: string): Map<string, string> {
  const index = readFileSync(join(dir, "dist/esm/lucide-react.mjs"), "utf8");
  const files = new Map<string, string>();
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g)) {
    for (const [, name] of names.matchAll(/default as (\w+)/g)) files.set(name, file);
  }
  return files;
}

/** The icon module's `const __iconData = { name, node, aliases }` literal, evaluated. */
function iconData(dir: string, file: string): { name: string; size?: number; node: unknown[]; aliases?: string[] } {
  const source = readFileSync(join(dir, "dist/esm/icons", `${file}.mjs`), "utf8");
  const literal = source.match(/const __iconData = (\{[\s\S]*?\n\});/)?.[1];
  if (!literal) throw new Error(`lucide-imports: no __iconData in lucide-react icon ${file}`);
  return new Function(`return (${literal});`)();
}

export function lucideDeepImports(): Plugin {
  const dir = packageDir();
  let files: Map<string, string> | undefined;
  return {
    name: "afx-lucide-icons",
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const data = iconData(dir, id.slice(PREFIX.length + 1));
      // lucide-icon.ts draws on lucide's 24 × 24 grid.
      if ((data.size ?? 24) !== 24) throw new Error(`lucide-imports: icon ${data.name} is not 24 × 24`);
      return [
        `import { lucideIcon } from "~/components/ui/lucide-icon";`,
        `export default /* @__PURE__ */ lucideIcon(${JSON.stringify(data.name)}, ${JSON.stringify(data.node)}, ${JSON.stringify(data.aliases ?? [])});`,
      ].join("\n");
    },
    transform(code, id) {
      if (id.includes("/node_modules/") || id.startsWith("\0") || !code.includes("lucide-react")) return null;
      files ??= iconFiles(dir);
      const icons = files;
      const out = code.replace(IMPORT, (statement, list: string) => {
        const rest: string[] = [];
        const direct: string[] = [];
        for (const spec of list.split(",").map((s) => s.trim()).filter(Boolean)) {
          const [name, local = name] = spec.split(/\s+as\s+/);
          const file = icons.get(name);
          if (file) direct.push(`import ${local} from "${PREFIX}${file}";`);
          else rest.push(spec);
        }
        if (rest.length) direct.push(`import { ${rest.join(", ")} } from "lucide-react";`);
        // Same line count, so positions after the statement stay where they were.
        return direct.join(" ") + "\n".repeat(statement.split("\n").length - 1);
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}
