// Starts the production build under `wrangler dev` with a local D1, for npm start, the browser
// tests and the benchmarks.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { ROOT, varArgs } from "./config.mjs";

const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");

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
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
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
 * `wrangler dev` on 127.0.0.1:port serving the built worker; resolves once it answers.
 * `vars` override configuration for this run (after the environment). `production: true` bundles
 * the worker as `wrangler deploy` does (NODE_ENV=production: React's production build; wrangler
 * dev defaults to its development build, several times slower to render), for the benchmarks.
 * `inspectorPort` opens the DevTools protocol of the worker's isolate there (the leads bench reads
 * its heap).
 */
export async function startWorker({ port, persistTo, vars = {}, stdio = "inherit", host = "localhost", production = false, inspectorPort = 0 }) {
  const child = spawn(
    WRANGLER,
    [
      "dev",
      "--port", String(port),
      "--ip", "127.0.0.1",
      "--persist-to", persistTo,
      "--local-protocol", "http",
      "--show-interactive-dev-session=false",
      // GET /__scheduled runs the Cron Trigger's handler (triggerScheduled).
      "--test-scheduled",
      ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : []),
      ...varArgs(vars),
    ],
    {
      cwd: ROOT,
      stdio,
      // Loopback only: no metrics, no download of the Request.cf sample.
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        CI: "true",
        ...(production ? { NODE_ENV: "production" } : {}),
      },
    },
  );
  const url = `http://${host}:${port}`;
  await waitForHttp(`${url}/robots.txt`, { child });
  return { child, url, stop: () => stopChild(child) };
}

/** Runs the worker's scheduled handler once, as the Cron Trigger does in production. */
export async function triggerScheduled(url) {
  const res = await fetch(`${url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`/__scheduled answered ${res.status}`);
}

export function stopChild(child) {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) return resolveStop();
    child.once("exit", () => resolveStop());
    child.kill("SIGTERM");
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5_000).unref();
  });
}
