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
"use strict";

const { resolve } = require("node:path");

const CLI = resolve(__dirname, "../../node_modules/wrangler/wrangler-dist/cli.js");
const TAG = "[wrangler-keep-alive]";

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

// The CLI is the main module: it is evaluated right after this preload, in the same tick, and its
// main() reaches the DevEnv only after several awaits. Its exports are complete by then.
setImmediate(() => {
  const cli = require.cache[CLI];
  if (!cli) {
    console.error(`${TAG} ${CLI} is not loaded: not patched`);
    return;
  }
  patch(cli.exports.unstable_DevEnv);
});
