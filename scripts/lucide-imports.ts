// Build only: `import { Menu, X } from "lucide-react"` becomes one import per icon module
// (`lucide-react/icons/menu`, a path the package exports). Through the package index every chunk
// that names an icon depends on the index, and the index on every icon the app uses anywhere, so
// Rollup's chunking (the shell chunk above all, see shell-chunk.ts) cannot tell which icons a
// chunk really needs. With direct imports each chunk carries its own icons only.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g;

/** Every name the package index exports for an icon → the icon's file name ("chevron-down"). */
function iconFiles(): Map<string, string> {
  const pkg = createRequire(import.meta.url).resolve("lucide-react/package.json");
  const index = readFileSync(join(dirname(pkg), "dist/esm/lucide-react.mjs"), "utf8");
  const files = new Map<string, string>();
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g)) {
    for (const [, name] of names.matchAll(/default as (\w+)/g)) files.set(name, file);
  }
  return files;
}

export function lucideDeepImports(): Plugin {
  let files: Map<string, string> | undefined;
  return {
    name: "afx-lucide-deep-imports",
    apply: "build",
    transform(code, id) {
      if (id.includes("/node_modules/") || !code.includes("lucide-react")) return null;
      files ??= iconFiles();
      const icons = files;
      const out = code.replace(IMPORT, (statement, list: string) => {
        const rest: string[] = [];
        const direct: string[] = [];
        for (const spec of list.split(",").map((s) => s.trim()).filter(Boolean)) {
          const [name, local = name] = spec.split(/\s+as\s+/);
          const file = icons.get(name);
          if (file) direct.push(`import ${local} from "lucide-react/icons/${file}";`);
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
