// A watchdog for the `wrangler dev` that the browser tests run against. wrangler dev is a node
// process with two workerd runtimes below it: the proxy that listens on the port and the worker
// itself. If the proxy's workerd dies, wrangler stays up and every request is refused; if wrangler
// dies, both go. Either way every later browser test fails with ERR_CONNECTION_REFUSED and says
// nothing about why. The watchdog notices (wrangler's exit, or the port refusing connections),
// prints why with the end of wrangler's log, and starts wrangler dev again on the same port with
// the same D1 (its data is kept), loudly: a test that was running at that moment fails as it
// would have, and the summary at the end names every restart.
import { existsSync, readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { descendants, listening, startWorker, stopWorkerProcesses, tailOf } from "./local-worker.mjs";

const PROBE_MS = 1_000;
const SNAPSHOT_MS = 10_000;

/**
 * Starts `startWorker(options)` (which must have a `logFile`) and keeps it running.
 * @param {import("./local-worker.mjs").WorkerOptions & { logFile: string, label?: string, maxRestarts?: number }} options
 */
export async function superviseWorker({ label = "wrangler dev", maxRestarts = 3, ...options }) {
  if (!options.logFile) throw new Error("superviseWorker needs a logFile: it prints the log when the worker dies");
  const startedAt = Date.now();
  /** @type {{ at: Date, reason: string, restarted: boolean }[]} */
  const deaths = [];
  let worker = await startWorker(options);
  let known = descendants(worker.child.pid);
  let stopping = false;
  let handling = null;

  const say = (message) => console.error(`[${label}] ${message}`);

  function watch(current) {
    current.child.once("exit", (code, signal) => {
      if (stopping || current !== worker) return;
      void onDeath(`wrangler dev (pid ${current.child.pid}) exited with ${signal ? `signal ${signal}` : `code ${code}`}`);
    });
  }
  watch(worker);

  const snapshots = setInterval(() => {
    if (!handling && !stopping) known = descendants(worker.child.pid);
  }, SNAPSHOT_MS);
  snapshots.unref();

  const runtimes = (list) => list.filter(({ args }) => args.includes("workerd serve"));
  const goneOnes = () => known.filter(({ pid }) => !isAlive(pid));
  const name = ({ pid, args }) => `${args.includes("workerd") ? "workerd" : "node"} pid ${pid} (${describe(args, options.port)})`;
  let probing = false;
  const probes = setInterval(async () => {
    if (probing || handling || stopping) return;
    probing = true;
    try {
      // Refused twice in a row: nothing listens on the port any more.
      if (!(await listening(options.port)) && !(await delay(250).then(() => listening(options.port)))) {
        if (handling || stopping) return;
        const gone = goneOnes();
        const what = gone.length ? gone.map(name).join(", ") : "no process of it is missing";
        void onDeath(`nothing listens on port ${options.port} any more; wrangler dev (pid ${worker.child.pid}) ${isAlive(worker.child.pid) ? "still runs" : "is gone"}; gone: ${what}`);
        return;
      }
      // A runtime gone while the port still answers (the worker's own workerd: requests would hang
      // or fail from now on), unless wrangler replaced it (a reload starts a new one at once).
      const lost = runtimes(goneOnes());
      if (lost.length) {
        await delay(3_000);
        if (handling || stopping) return;
        const now = runtimes(descendants(worker.child.pid));
        if (now.length < runtimes(known).length) {
          void onDeath(`${lost.map(name).join(", ")} is gone and wrangler dev (pid ${worker.child.pid}) did not start another`);
        } else {
          known = descendants(worker.child.pid);
        }
      }
    } finally {
      probing = false;
    }
  }, PROBE_MS);
  probes.unref();

  function onDeath(reason) {
    if (handling) return handling;
    handling = (async () => {
      const at = new Date();
      const after = Math.round((at.getTime() - startedAt) / 1000);
      const restart = deaths.length < maxRestarts;
      deaths.push({ at, reason, restarted: false });
      const rule = "=".repeat(100);
      say(rule);
      say(`✘ THE LOCAL WORKER DIED at ${at.toISOString()} (${after} s into the run): ${reason}.`);
      say(`Last lines of ${options.logFile} (debug log: ${options.logFile.replace(/\.log$/, "")}.debug.log):`);
      console.error(indent(tailOf(options.logFile)));
      // It is broken already: a short grace for wrangler's own cleanup, then the rest by pid.
      await stopWorkerProcesses(worker.child, known, 2_000);
      if (!restart) {
        say(`Not restarting it again (${maxRestarts} restarts already): every later request is refused.`);
        say(rule);
        return;
      }
      say(`Restarting wrangler dev on port ${options.port} with the same D1 (${options.persistTo}), restart ${deaths.length} of at most ${maxRestarts}.`);
      say("Tests that were talking to it just now fail because of this death, not because of the app.");
      try {
        await waitUntilFree(options.port);
        worker = await startWorker(options);
        known = descendants(worker.child.pid);
        watch(worker);
        deaths[deaths.length - 1].restarted = true;
        say(`✔ wrangler dev answers again on port ${options.port} (${Math.round((Date.now() - at.getTime()) / 1000)} s after the death).`);
      } catch (error) {
        say(`✘ It did not come back: ${error instanceof Error ? error.message : error}`);
      }
      say(rule);
    })().finally(() => {
      handling = null;
    });
    return handling;
  }

  return {
    url: worker.url,
    get child() {
      return worker.child;
    },
    /** The deaths seen so far, each with its reason and whether the worker came back. */
    deaths,
    /**
     * For the end of the run: the deaths, and the requests that failed inside wrangler's proxy
     * (wrangler-keep-alive.cjs kept it up), or "" when there were none.
     */
    summary() {
      const parts = [];
      if (deaths.length) {
        const lines = deaths.map((d, i) => `  ${i + 1}. ${d.at.toISOString()}: ${d.reason}; ${d.restarted ? "restarted" : "NOT restarted"}`);
        parts.push(`✘ The local worker died ${deaths.length} time(s) during this run:\n${lines.join("\n")}`);
      }
      const kept = keptAlive(options.logFile);
      if (kept.length) {
        parts.push(`✘ ${kept.length} request(s) failed inside wrangler dev's proxy, which stayed up or sent them once more (wrangler-keep-alive.cjs):\n${kept.map((l) => `  ${l}`).join("\n")}`);
      }
      return parts.length ? `${parts.join("\n")}\n  Its log: ${options.logFile}` : "";
    },
    async stop() {
      stopping = true;
      clearInterval(probes);
      clearInterval(snapshots);
      await handling;
      await stopWorkerProcesses(worker.child, known);
    },
  };
}

/** The keep-alive preload's reports in the log (one per failed or resent proxied request). */
function keptAlive(logFile) {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8")
    .split("\n")
    .map((line) => stripVTControlCharacters(line))
    .filter((line) => line.includes("[wrangler-keep-alive] ✘"))
    .map((line) => line.slice(line.indexOf("[wrangler-keep-alive]")));
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function describe(args, port) {
  if (args.includes(`=127.0.0.1:${port} `)) return `the proxy on port ${port}`;
  if (args.includes("workerd")) return "the worker's runtime";
  return args.slice(0, 60);
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const indent = (text) => text.replace(/^/gm, "    | ");

async function waitUntilFree(port, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await listening(port))) return;
    await delay(200);
  }
  throw new Error(`port ${port} is still taken`);
}
