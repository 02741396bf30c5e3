// Client build only: every JavaScript chunk starts with V8's explicit compile hint
// (`//# allFunctionsCalledOnLoad`, Chromium 136 and later; other engines read a comment). Without it
// V8 compiles a function only at its first call, on the main thread: a first visit's hydration
// compiles most of react-dom that way, inside the tasks a phone's user waits on. With it the whole
// file is compiled on the background thread that compiles it as it downloads. Our chunks are the
// page's start-up or a part fetched when it is about to run, so each carries the hint
// (docs/decisions/068-compile-hints.md; measured in bench/NOTES.md).
import type { Plugin } from "vite";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

export function compileHints(): Plugin {
  return {
    name: "afx-compile-hints",
    apply: (_config, { command, isSsrBuild }) => command === "build" && !isSsrBuild,
    // Last: after minification (renderChunk), which would drop the comment, and after Vite's own
    // generateBundle, which puts its preload map (`const __vite__mapDeps=…`) at the top. No client
    // source maps are built, whose lines it would shift.
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === "chunk") file.code = COMPILE_HINT + file.code;
        }
      },
    },
  };
}
