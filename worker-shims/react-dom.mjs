// The worker's stand-in for react-dom's browser renderer (wrangler.toml [alias]; the Vite builds
// and the browser use the real one). The worker renders with react-dom/server; react-dom itself
// (135 KB minified, an eighth of the worker) is imported on the server only for calls that happen
// in the browser: portals once mounted (Radix), flushSync in event handlers (React Router, Radix).
// Bundling it bought nothing (docs/decisions/010-performance.md has the figures).

// The installed react-dom's own version, so the stand-in never claims another.
import { version } from "../node_modules/react-dom/package.json";

export function flushSync(fn) {
  return fn();
}

export function unstable_batchedUpdates(fn, a) {
  return fn(a);
}

export function createPortal() {
  throw new Error("react-dom's createPortal runs in the browser only (worker-shims/react-dom.mjs)");
}

export { version };

export default { createPortal, flushSync, unstable_batchedUpdates, version };
