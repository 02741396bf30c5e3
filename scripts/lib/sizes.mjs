// What a page downloads before it is interactive, read from the built Remix manifest, and the
// worker bundle's size: deterministic numbers for the size guard and `npm run bench`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./config.mjs";

const CLIENT = resolve(ROOT, "build/client");

export function gzipBytes(buffer) {
  return gzipSync(buffer, { level: 9 }).length;
}

/** window.__remixManifest of the last build. */
export function remixManifest() {
  const file = readdirSync(join(CLIENT, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error("No Remix manifest in build/client/assets: run `npm run build` first.");
  const source = readFileSync(join(CLIENT, "assets", file), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
}

/** Route ids from the root down to `routeId`. */
export function routeChain(manifest, routeId) {
  const chain = [];
  for (let id = routeId; id; id = manifest.routes[id]?.parentId) {
    if (!manifest.routes[id]) throw new Error(`Unknown route ${id}`);
    chain.unshift(id);
  }
  return chain;
}

/** JS and CSS (gzip bytes) the entry and the given routes load, each file counted once. */
export function assetBytes(manifest, routeIds, { withEntry = true } = {}) {
  const js = new Set();
  const css = new Set();
  if (withEntry) {
    js.add(manifest.entry.module);
    manifest.entry.imports.forEach((f) => js.add(f));
    manifest.entry.css?.forEach((f) => css.add(f));
  }
  for (const id of routeIds) {
    const route = manifest.routes[id];
    js.add(route.module);
    route.imports?.forEach((f) => js.add(f));
    route.css?.forEach((f) => css.add(f));
  }
  const size = (files) => [...files].reduce((sum, f) => sum + gzipBytes(readFileSync(join(CLIENT, f))), 0);
  return { jsGzip: size(js), cssGzip: size(css), jsFiles: [...js], cssFiles: [...css] };
}

/** React + the Remix runtime alone: the entry module and what it imports. */
export function frameworkFloor(manifest) {
  return assetBytes(manifest, [], { withEntry: true }).jsGzip;
}

/**
 * The stylesheet every document carries: its text inlined in the <head> (a <style>, see
 * app/components/shell/inline-stylesheet.tsx), from a document as served; gzip bytes.
 */
export function stylesheetGzip(html) {
  const css = html.match(/<style[^>]*>([\s\S]*?)<\/style>/)?.[1];
  if (css === undefined) throw new Error("No inlined <style> in the document.");
  return gzipBytes(Buffer.from(css));
}

/**
 * The worker as `wrangler deploy` would upload it (minified), gzip bytes. NODE_ENV is pinned:
 * wrangler replaces `process.env.NODE_ENV` in the bundle with the caller's value, and vitest sets
 * it to "test", which bundled React's development builds (301 559 B instead of 269 022 B in one
 * CI run); a deploy runs without it, i.e. "production".
 */
export function workerBundle() {
  const outdir = mkdtempSync(join(tmpdir(), "afx-worker-"));
  try {
    const result = spawnSync(resolve(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", CI: "true" },
    });
    if (result.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${result.stderr}`);
    const files = readdirSync(outdir).filter((f) => f.endsWith(".js") || f.endsWith(".mjs"));
    const bytes = files.reduce((sum, f) => sum + readFileSync(join(outdir, f)).length, 0);
    const gzip = files.reduce((sum, f) => sum + gzipBytes(readFileSync(join(outdir, f))), 0);
    return { bytes, gzip, outdir };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
