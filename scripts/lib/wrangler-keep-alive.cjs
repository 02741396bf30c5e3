// Preloaded (`node --require`) into the wrangler CLI that `startWorker` runs (local-worker.mjs):
// one failed request through wrangler dev's proxy must not end the whole dev server.
//
// wrangler dev is a node process with two workerd runtimes: a proxy that listens on the port
// (ProxyWorker) and the worker itself. When the proxy's fetch to the worker fails (a pooled
// loopback connection closed under it — kj's two 5 s keep-alive timers race, more often on a loaded
// machine — or a client that went away mid-request), the ProxyWorker reports "Error inside
// ProxyWorker", the DevEnv re-emits it as an "error" event, and `wrangler dev`'s command handler,
// which waits with events.once(devEnv, "teardown"), rejects on it: wrangler prints an empty
// "✘ [ERROR]", tears the runtimes down and exits 1. Every later request is refused. That is
// workers-sdk#14926 / #15317, fixed upstream by #15252 (the error stays with its request) in a
// wrangler far newer than the pinned 4.86.0.
//
// Here the DevEnv logs that error, loudly and with its cause, instead of re-emitting it: the
// request it belongs to still fails (nothing is retried), the server stays up for the rest.
// Every other error keeps wrangler's own handling. If this wrangler has no such method (an
// upgrade), the preload says so and changes nothing.
//
// That race has a second face. The ProxyWorker (wrangler-dist/ProxyWorker.js) decides whether a
// failed fetch was "the worker restarting" by comparing the request's full URL with the worker's
// bare origin, so for every path but "/" a plain network error counts as a restart: a GET waits in
// a queue until the next request arrives, and a POST is answered 503 "Your worker restarted
// mid-request" (one failed a CI run's signup). No reload happened: the pooled connection was
// closed by the worker's side just as the proxy reused it, before the worker read the request.
// So the ProxyWorker's source, as miniflare reads it, gets one change: a fetch that fails while
// the worker is unchanged is sent once more (its body kept for that), and says so in the log.
// A second failure, or a real reload, goes on to wrangler's own handling.
"use strict";

const fs = require("node:fs");
const { resolve } = require("node:path");

const CLI = resolve(__dirname, "../../node_modules/wrangler/wrangler-dist/cli.js");
const PROXY_WORKER = resolve(__dirname, "../../node_modules/wrangler/wrangler-dist/ProxyWorker.js");
const TAG = "[wrangler-keep-alive]";

const PROXY_FETCH = "void fetch(userWorkerUrl, new Request(request, { headers })).then(";
// Runs inside the ProxyWorker (workerd): plain JS, no imports; urlFromParts is the module's own.
const RETRY_ONCE = `
async function fetchRetryingOnce(url, request, headers, currentProxyData) {
  const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
  const send = () => fetch(url, new Request(request, { headers, body }));
  try {
    return await send();
  } catch (error) {
    const now = currentProxyData();
    // A reload (new worker, or paused for one) is wrangler's own case: requeued or 503.
    if (!now || urlFromParts(now.userWorkerUrl).origin !== url.origin) throw error;
    console.error("${TAG} ✘ " + request.method + " " + new URL(request.url).pathname + " failed inside wrangler dev's proxy (" + String(error && error.message) + "); the worker did not restart: sent once more");
    return await send();
  }
}
`;

/** The ProxyWorker's source with the retry (null when this wrangler's source differs). */
function patchProxyWorker(source) {
  if (!source.includes(PROXY_FETCH)) return null;
  return `${source.replace(PROXY_FETCH, "void fetchRetryingOnce(userWorkerUrl, request, headers, () => this.proxyData).then(")}\n${RETRY_ONCE}`;
}

function patchProxyWorkerSource() {
  const original = fs.readFileSync;
  let warned = false;
  fs.readFileSync = function readFileSync(path, ...rest) {
    const out = original.call(this, path, ...rest);
    if (typeof path !== "string" || resolve(path) !== PROXY_WORKER) return out;
    const patched = patchProxyWorker(Buffer.isBuffer(out) ? out.toString("utf8") : out);
    if (patched === null) {
      if (!warned) console.error(`${TAG} ${PROXY_WORKER} has changed: not patched (a proxied POST may get a spurious 503)`);
      warned = true;
      return out;
    }
    return Buffer.isBuffer(out) ? Buffer.from(patched) : patched;
  };
}

function patch(DevEnv) {
  const original = DevEnv?.prototype?.handleErrorEvent;
  if (typeof original !== "function") {
    console.error(`${TAG} wrangler's DevEnv has no handleErrorEvent: not patched (a failed proxied request ends wrangler dev)`);
    return;
  }
  let count = 0;
  DevEnv.prototype.handleErrorEvent = function handleErrorEvent(event) {
    if (event?.source === "ProxyController" && event.reason === "Error inside ProxyWorker") {
      count++;
      const cause = event.cause;
      const what = [cause?.name, cause?.message].filter(Boolean).join(": ") || "no message";
      console.error(
        `${TAG} ✘ a request failed inside wrangler dev's proxy (${what}); wrangler 4.86 would exit here ` +
          `(workers-sdk#14926), it keeps serving. That request failed; ${count} so far.`,
      );
      if (cause?.stack) console.error(String(cause.stack).replace(/^/gm, `${TAG}   `));
      return;
    }
    return original.call(this, event);
  };
}

module.exports = { patchProxyWorker, RETRY_ONCE };

// Only when preloaded into wrangler's CLI (a test requires this file to check the patch).
const PRELOADED = Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]) === CLI;
if (PRELOADED) patchProxyWorkerSource();

// The CLI is the main module: it is evaluated right after this preload, in the same tick, and its
// main() reaches the DevEnv only after several awaits. Its exports are complete by then.
setImmediate(() => {
  if (!PRELOADED) return;
  const cli = require.cache[CLI];
  if (!cli) {
    console.error(`${TAG} ${CLI} is not loaded: not patched`);
    return;
  }
  patch(cli.exports.unstable_DevEnv);
});
