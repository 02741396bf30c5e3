// Starts the production build under `wrangler dev` with a local D1, for npm start, the browser
// tests and the benchmarks.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { ROOT, varArgs } from "./config.mjs";

const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");
// wrangler dev runs its CLI directly (what node_modules/.bin/wrangler spawns, with the same flags),
// with the preload that keeps it up when one proxied request fails (wrangler-keep-alive.cjs).
const WRANGLER_CLI = resolve(ROOT, "node_modules/wrangler/wrangler-dist/cli.js");
const KEEP_ALIVE = resolve(ROOT, "scripts/lib/wrangler-keep-alive.cjs");

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
  }
}

export function build() {
  run(resolve(ROOT, "node_modules/.bin/remix"), ["vite:build"]);
}

/** Applies pending migrations to the local D1 kept in `persistTo`. */
export function migrate(persistTo) {
  run(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export async function waitForHttp(url, { timeoutMs = 60_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && exited(child)) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    try {
      const res = await fetch(url, { redirect: "manual" });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * @typedef {{ port: number, persistTo: string, vars?: Record<string, string>, stdio?: "inherit" | "ignore",
 *   host?: string, production?: boolean, inspectorPort?: number, logFile?: string }} WorkerOptions
 */

/**
 * `wrangler dev` on 127.0.0.1:port serving the built worker; resolves once it answers.
 * `vars` override configuration for this run (after the environment). `production: true` bundles
 * the worker as `wrangler deploy` does (NODE_ENV=production: React's production build; wrangler
 * dev defaults to its development build, several times slower to render), for the benchmarks.
 * `inspectorPort` opens the DevTools protocol of the worker's isolate there (the leads bench reads
 * its heap); by default a free port.
 * `logFile`: wrangler's output, with the workerd runtimes' that it relays, is appended there (also
 * when `stdio` is "ignore"; with "inherit" it is printed as well), and wrangler's debug log goes
 * beside it as *.debug.log instead of ~/.config/.wrangler/logs.
 * @param {WorkerOptions} options
 */
export async function startWorker({ port, persistTo, vars = {}, stdio = "inherit", host = "localhost", production = false, inspectorPort = 0, logFile }) {
  const output = logFile ? workerOutput(logFile, stdio) : { stdio, env: {} };
  const child = spawn(
    process.execPath,
    [
      "--no-warnings",
      "--experimental-vm-modules",
      "--require",
      KEEP_ALIVE,
      WRANGLER_CLI,
      "dev",
      "--port", String(port),
      "--ip", "127.0.0.1",
      "--persist-to", persistTo,
      "--local-protocol", "http",
      "--show-interactive-dev-session=false",
      // GET /__scheduled runs the Cron Trigger's handler (triggerScheduled).
      "--test-scheduled",
      // A free port of its own: by default every wrangler dev takes 9229 when it looks free, and
      // two starting at once (a parallel run, the blog-failing-feed worker) race for it; the loser
      // exits with "Address already in use (127.0.0.1:9229)".
      "--inspector-port", String(inspectorPort || (await freePort())),
      ...varArgs(vars),
    ],
    {
      cwd: ROOT,
      stdio: output.stdio,
      // Loopback only: no metrics, no download of the Request.cf sample.
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        CI: "true",
        ...(production ? { NODE_ENV: "production" } : {}),
        ...output.env,
      },
    },
  );
  output.attach?.(child);
  const url = `http://${host}:${port}`;
  try {
    await waitForHttp(`${url}/robots.txt`, { child });
  } catch (error) {
    await stopWorkerProcesses(child);
    throw error;
  }
  return { child, url, port, persistTo, logFile, stop: () => stopWorkerProcesses(child) };
}

/** Where wrangler's output goes when it is logged to `logFile`. */
function workerOutput(logFile, stdio) {
  appendFileSync(logFile, `\n===== wrangler dev started at ${new Date().toISOString()} =====\n`);
  const env = { WRANGLER_LOG_PATH: logFile.replace(/\.log$/, "") + ".debug.log" };
  if (stdio !== "inherit") {
    // The file itself, not a pipe: nothing in this process has to keep reading for wrangler to write.
    const fd = openSync(logFile, "a");
    return { stdio: ["ignore", fd, fd], env, attach: () => closeSync(fd) };
  }
  return {
    stdio: ["ignore", "pipe", "pipe"],
    env,
    attach(child) {
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        from.on("data", (chunk) => {
          appendFileSync(logFile, chunk);
          to.write(chunk);
        });
      }
    },
  };
}

/** wrangler's line for each request it served: many, and rarely the reason something broke. */
const REQUEST_LINE = /^\[wrangler:info\] [A-Z]+ \S+ \d{3} /;

/**
 * The end of a wrangler log as text for CI: its last `lines` non-blank lines other than the
 * request lines, then its last `requests` request lines ("" when there is no log).
 */
export function tailOf(file, lines = 80, requests = 10) {
  if (!file || !existsSync(file)) return "";
  // Without colours: the log is read in CI's plain text.
  const all = stripVTControlCharacters(readFileSync(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim());
  const served = all.filter((line) => REQUEST_LINE.test(line));
  const other = all.filter((line) => !REQUEST_LINE.test(line));
  return [
    ...other.slice(-lines),
    `--- its last ${Math.min(requests, served.length)} of ${served.length} request lines:`,
    ...served.slice(-requests),
  ].join("\n");
}

/** Every process below `pid` (wrangler's node, the workerd runtimes), with its command line. */
export function descendants(pid) {
  let table;
  try {
    table = execFileSync("ps", ["-ww", "-A", "-o", "pid=,ppid=,args="], { encoding: "utf8" });
  } catch {
    return [];
  }
  const rows = table
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const found = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (parents.has(row.ppid) && !parents.has(row.pid)) {
        parents.add(row.pid);
        found.push(row);
        grew = true;
      }
    }
  }
  return found;
}

/** The command line `pid` runs now, or null when there is no such process. */
function commandOf(pid) {
  try {
    return execFileSync("ps", ["-ww", "-o", "args=", "-p", String(pid)], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Stops wrangler dev and whatever it started: wrangler's node processes and their workerd runtimes,
 * which outlive a wrangler that died and keep the port. `known`: processes seen below it earlier
 * (after wrangler died they are no longer its descendants). Only these processes, by pid, and
 * only while they still run the command they were seen with.
 */
export async function stopWorkerProcesses(child, known = [], graceMs = 5_000) {
  const below = [...descendants(child.pid), ...known];
  await stopChild(child, graceMs);
  for (const { pid, args } of below) {
    if (commandOf(pid) !== args) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port (false only when refused). */
export function listening(port, timeoutMs = 5_000) {
  return new Promise((resolveProbe) => {
    const socket = connect({ port, host: "127.0.0.1" });
    const done = (result) => {
      socket.destroy();
      resolveProbe(result);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // slow, not refused: a loaded machine
    socket.once("connect", () => done(true));
    socket.once("error", (error) => done(error.code !== "ECONNREFUSED"));
  });
}

/** Runs the worker's scheduled handler once, as the Cron Trigger does in production. */
export async function triggerScheduled(url) {
  const res = await fetch(`${url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`/__scheduled answered ${res.status}`);
}

/** Whether a child process has ended (with a code, or by a signal). */
export function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

export function stopChild(child, graceMs = 5_000) {
  return new Promise((resolveStop) => {
    if (exited(child)) return resolveStop();
    child.once("exit", () => resolveStop());
    child.kill("SIGTERM");
    setTimeout(() => !exited(child) && child.kill("SIGKILL"), graceMs).unref();
  });
}
