// Client build only: the app's own modules that the root route imports statically (the shell,
// the catalogues it lists) go into one "shell" chunk. The root route runs on every page, so this
// code is always downloaded together; left to itself Rollup cuts it into a dozen sub-kilobyte
// chunks (one per set of importing routes), each a request of its own that gzip compresses
// poorly. React and the Remix runtime (what the entry imports) keep their own chunk, so the
// framework floor is unchanged; lazily imported modules keep chunks of their own.
import type { Plugin } from "vite";

type ModuleInfo = { importedIds: readonly string[]; dynamicImporters: readonly string[] } | null;
type GetModuleInfo = (id: string) => ModuleInfo;

const isLazy = (id: string, getModuleInfo: GetModuleInfo) => (getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0;

/** Modules `from` imports statically; `stop` ends the walk (the module itself is kept). */
function reachable(from: string, getModuleInfo: GetModuleInfo, stop: (id: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (id !== from && stop(id)) continue;
    stack.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

export function shellChunk(): Plugin {
  return {
    name: "afx-shell-chunk",
    apply: (_config, { command, isSsrBuild }) => command === "build" && !isSsrBuild,
    outputOptions(options) {
      let chunkOf: Map<string, string> | undefined;
      return {
        ...options,
        manualChunks(id, { getModuleIds, getModuleInfo }) {
          if (!chunkOf) {
            chunkOf = new Map();
            const ids = [...getModuleIds()];
            const root = ids.find((m) => /\/app\/root\.tsx$/.test(m));
            const entry = ids.find((m) => /\/app\/entry\.client\.tsx$/.test(m));
            if (!root || !entry) return null;
            // Named as Rollup names it unasked (after Remix's components module).
            for (const m of reachable(entry, getModuleInfo, () => false)) if (m !== entry) chunkOf.set(m, "components");
            // A package index re-exporting hundreds of modules is not walked into: Rollup would pull
            // every module it re-exports into the shell (the app's icons come from icons.generated.ts instead).
            const barrel = (m: string) =>
              m.includes("/node_modules/") && (getModuleInfo(m)?.importedIds.length ?? 0) > 50;
            const lazy = (m: string) => isLazy(m, getModuleInfo);
            for (const m of reachable(root, getModuleInfo, (m) => barrel(m) || lazy(m))) {
              if (m === root || chunkOf.has(m) || barrel(m) || m.startsWith("\0") || /\.css($|\?)/.test(m)) continue;
              chunkOf.set(m, lazy(m) ? "" : "shell");
            }
            // A module the shell imports for the server render but loads lazily in the browser (the
            // footer's signup form) keeps a chunk of its own, and the libraries it brings (the form
            // library) one beside it that other routes share, as Rollup would cut them unasked.
            for (const [m, chunk] of chunkOf) {
              if (chunk !== "") continue;
              const name = m.replace(/^.*\//, "").replace(/\.\w+$/, "");
              chunkOf.set(m, name);
              for (const dep of reachable(m, getModuleInfo, barrel)) {
                if (!chunkOf.has(dep) && dep.includes("/node_modules/") && !barrel(dep))
                  chunkOf.set(dep, `${name}-libs`);
              }
            }
          }
          return chunkOf.get(id) ?? null;
        },
      };
    },
  };
}
