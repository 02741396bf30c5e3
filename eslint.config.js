// `npm run lint`: ESLint over the app, the worker entry, scripts, tests and benchmarks.
// typescript-eslint's recommended rules (syntax only, no type information: fast enough for CI on
// two cores; tsc does the type checks), the rules of hooks, and jsx-a11y for the markup.
// Every rule switched off below says why, and only for the files it was checked in.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  {
    ignores: [
      "build/",
      "dist/",
      ".wrangler/",
      "test-results/",
      "bench/results/",
      "public/",
      "worker-configuration.d.ts",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  { files: ["**/*.tsx"], ...reactHooks.configs.flat.recommended },
  { files: ["**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.serviceworker } },
    rules: {
      // A leading underscore marks a parameter kept for its position (a loader's args, a map's key).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // server.ts imports build/server, which exists only after a build: `@ts-expect-error` would
      // fail once it exists, so `@ts-ignore` stays, with its reason on the line.
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": "allow-with-description" }],
    },
  },
  {
    // Icons come from the generated module (scripts/icons.mjs): lucide-react's index would tie
    // every chunk naming an icon to every icon, and its runtime redraws each one on every render.
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "lucide-react",
              message: 'Import icons from "~/components/ui/icons.generated" (then `npm run icons`).',
            },
          ],
        },
      ],
    },
  },
  {
    // Intl formatters (decision 032): one module builds them, each on first use, and reuses it.
    // Built per call (or by toLocale*String) each costs about a millisecond; built at import, they
    // add to the worker's start-up.
    files: ["app/**", "worker/**"],
    // format-local.ts: the reader's own time zone, a module of its own so that only the pages
    // that show it (the admin's) carry it, not every page's shared format chunk.
    ignores: ["app/utils/format.ts", "app/utils/format-local.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.object.name='Intl']",
          message: "Format with ~/utils/format (one Intl formatter each, built on first use): decision 032.",
        },
        {
          selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]",
          message: "toLocale*String builds a formatter per call: format with ~/utils/format (decision 032).",
        },
      ],
    },
  },
  {
    // In format.ts itself: a formatter is kept in a module variable and built on first use.
    files: ["app/utils/format.ts", "app/utils/format-local.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "NewExpression[callee.object.name='Intl']:not(AssignmentExpression[operator='??='] > NewExpression)",
          message: "Build a formatter once, on first use: `formatter ??= new Intl…` (decision 032).",
        },
      ],
    },
  },
  {
    // Server log lines go through log() (decision 038): one shape, scrubbed of query strings and
    // link tokens. The browser's own entry may warn in the console.
    files: ["app/**", "worker/**"],
    ignores: ["app/utils/log.server.ts", "app/entry.client.tsx"],
    rules: { "no-console": ["error"] },
  },
  {
    // CommonJS by design (worker-shims/react-dom-server.cjs stands in for a CommonJS module).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests reach into the page (`window as any` in page.evaluate) and into untyped JSON bodies;
    // typing those adds nothing the assertions do not already check.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The same-origin path judge refuses ASCII control characters by matching exactly them.
    files: ["app/utils/same-origin-path.ts"],
    rules: { "no-control-regex": "off" },
  },
  // react-hooks 7's React Compiler rules, off where they flag the standard patterns this app uses
  // deliberately (it does not run the React Compiler):
  {
    // A ref written during render: the "latest value" ref read by long-lived listeners
    // (keyboard-shortcuts) and the "mounted once opened" flag that keeps the lazy dialog's close
    // animation (exit-intent-popup).
    files: ["app/components/shell/keyboard-shortcuts.tsx", "app/components/shell/exit-intent-popup.tsx"],
    rules: { "react-hooks/refs": "off" },
  },
  {
    // `searchHandled` is a ref from the sidebar context; the rule only recognises refs by a
    // `Ref` suffix or a local useRef().
    files: ["app/components/shell/sidebar-context.tsx"],
    rules: { "react-hooks/immutability": "off" },
  },
  {
    // setState at the start of an effect: browser-only state read after hydration (settings:
    // the server cannot know it, and the first render must match the HTML) and the embed check
    // starting (subsidiary page). One extra render on mount, by design.
    files: ["app/routes/settings.tsx", "app/routes/subsidiary.$id.tsx"],
    rules: { "react-hooks/set-state-in-effect": "off" },
  },
]);
