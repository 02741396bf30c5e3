// Starts the production build under `wrangler dev` with a local D1, for npm start, the browser
// tests and the benchmarks.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { relayFiltered } from "./wrangler-output.mjs";
import { ROOT, varArgs } from "./config.mjs";

const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
  }
}

/** The production build's command: `build()` runs it; `npm test` starts it beside the unit suite. */
export const BUILD_COMMAND = [resolve(ROOT, "node_modules/.bin/remix"), ["vite:build"]];

export function build() {
  run(...BUILD_COMMAND);
}

/**
 * Applies pending migrations to the local D1 kept in `persistTo`. An empty (throw-away) directory
 * gets a copy of a database migrated once per set of migration files and wrangler version: wrangler
 * applies each migration in a Miniflare of its own, 11 s of CPU for the fifteen, and a test run
 * or a bench starts several throw-away databases.
 */
export function migrate(persistTo, vars = {}) {
  if (existsSync(persistTo) && readdirSync(persistTo).length) {
    applyMigrations(persistTo);
    seedDocuments(persistTo);
    return seedVentures(persistTo, vars);
  }
  const template = resolve(ROOT, "node_modules/.cache/migrated-d1", migrationsKey(vars));
  if (!existsSync(template)) {
    // Made aside and renamed into place, so that a process starting beside this one never copies
    // a half-migrated database; if one got there first, its copy is the same.
    const building = `${template}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    applyMigrations(building);
    seedDocuments(building);
    seedVentures(building, vars);
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  cpSync(template, persistTo, { recursive: true });
}

function applyMigrations(persistTo) {
  run(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** The document library's starting documents, when it is empty (scripts/documents-seed.mjs). */
function seedDocuments(persistTo) {
  run(process.execPath, [resolve(ROOT, "scripts/documents-seed.mjs"), "--persist-to", persistTo], {
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * The portfolio's starting ventures (scripts/ventures-seed.mjs), with `vars` (the server's
 * VENTURE_DOMAINS, SUBSIDIARY_VIDEOS) over wrangler.toml's [vars]; ventures already there stay.
 */
function seedVentures(persistTo, vars) {
  const args = Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}=${value}`]);
  run(process.execPath, [resolve(ROOT, "scripts/ventures-seed.mjs"), "--persist-to", persistTo, ...args], {
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** What the seeded starting documents are drawn from (their catalogues and the drawing). */
const SEED_SOURCES = [
  "scripts/fact-sheets.ts",
  "app/features/documents/starting.server.ts",
  "app/content/documents.ts",
  "app/content/ventures.ts",
  "app/content/site.ts",
  "app/features/ventures/seed.server.ts",
  "app/features/ventures/revisions.ts",
  "scripts/ventures-seed.mjs",
];

/**
 * The migration files' names and contents, the starting documents' sources and wrangler's
 * version: what the migrated (and seeded) database depends on.
 */
function migrationsKey(vars = {}) {
  const hash = createHash("sha256");
  const dir = resolve(ROOT, "migrations");
  for (const name of readdirSync(dir).sort()) hash.update(`${name}\0`).update(readFileSync(join(dir, name)));
  for (const name of SEED_SOURCES) hash.update(`${name}\0`).update(readFileSync(resolve(ROOT, name)));
  hash.update(JSON.parse(readFileSync(resolve(ROOT, "node_modules/wrangler/package.json"), "utf8")).version);
  // The ventures are seeded with the server's VENTURE_DOMAINS and SUBSIDIARY_VIDEOS: a template per set.
  hash.update(JSON.stringify(Object.entries(vars).sort()));
  return hash.digest("hex").slice(0, 16);
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
export async function startWorker({
  port,
  persistTo,
  vars = {},
  stdio = "inherit",
  host = "localhost",
  production = false,
  inspectorPort = 0,
  logFile,
}) {
  const output = logFile ? workerOutput(logFile, stdio) : stdio === "inherit" ? filteredOutput() : { stdio, env: {} };
  /** @type {import("node:child_process").ChildProcess} */
  const child = spawn(
    WRANGLER,
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persistTo,
      "--local-protocol",
      "http",
      "--show-interactive-dev-session=false",
      // GET /__scheduled runs the Cron Trigger's handler (triggerScheduled).
      "--test-scheduled",
      // A free port of its own: by default every wrangler dev takes 9229 when it looks free, and
      // two starting at once (a parallel run, the blog-failing-feed worker) race for it; the loser
      // exits with "Address already in use (127.0.0.1:9229)".
      "--inspector-port",
      String(inspectorPort || (await freePort())),
      ...varArgs(vars),
    ],
    {
      cwd: ROOT,
      stdio: output.stdio,
      // A process group of its own (wrangler's node and the workerd runtimes it starts), so that
      // stopping it stops exactly what this call started, and nothing else on a shared machine.
      detached: true,
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
    await stopGroup(child);
    throw error;
  }
  return { child, url, port, persistTo, logFile, stop: () => stopGroup(child) };
}

/** Printed, without wrangler's repeats and workerd's stack dumps (wrangler-output.mjs). */
function filteredOutput() {
  return {
    stdio: ["ignore", "pipe", "pipe"],
    env: {},
    attach(child) {
      relayFiltered(child.stdout, process.stdout);
      relayFiltered(child.stderr, process.stderr);
    },
  };
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
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
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

/**
 * Stops a child started with `detached: true` and everything in its process group (wrangler dev's
 * workerd runtimes): SIGTERM to the group, SIGKILL to whatever is left after `graceMs`.
 */
export async function stopGroup(child, graceMs = 5_000) {
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone
    }
  };
  if (!exited(child)) {
    const gone = new Promise((r) => child.once("exit", r));
    signalGroup("SIGTERM");
    await Promise.race([gone, new Promise((r) => setTimeout(r, graceMs).unref())]);
  }
  // The leader may be gone while a runtime of its group still holds the port.
  signalGroup("SIGKILL");
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
