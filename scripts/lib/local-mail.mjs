// The local SMTP server with a web inbox for `npm start`, `npm run dev` and the tests: maildev
// (a real SMTP server that keeps every message and shows it at its web address; its REST API,
// GET /email, is what the tests read). It runs only when SMTP_HOST/SMTP_PORT are unset or name the
// local default of wrangler.toml; a real provider configured in the environment is used as is.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { localVars, ROOT } from "./config.mjs";
import { freePort, stopChild, waitForHttp } from "./local-worker.mjs";

const MAILDEV = resolve(ROOT, "node_modules/maildev/bin/maildev");
const DEFAULT_WEB_PORT = 1080;

/** The SMTP_HOST and SMTP_PORT of wrangler.toml [vars]: where the local server listens. */
export function localDefaultSmtp() {
  const vars = localVars();
  if (!vars.SMTP_HOST || !vars.SMTP_PORT) throw new Error("wrangler.toml [vars] has no SMTP_HOST/SMTP_PORT");
  return { host: vars.SMTP_HOST, port: Number(vars.SMTP_PORT) };
}

/**
 * Starts the local SMTP server and inbox unless a real server is configured.
 * `smtpPort`/`webPort`: 0 for free ports; by default the local default SMTP port and 1080, or free
 * ones when those are taken (another checkout's `npm start`, a parallel test run).
 * @param {{ smtpPort?: number, webPort?: number }} [options]
 * @returns {Promise<{ smtpHost: string, smtpPort: number, inboxUrl: string, stop: () => Promise<void> } | null>}
 */
export async function startLocalMailIfNeeded(options = {}) {
  const fallback = localDefaultSmtp();
  const host = process.env.SMTP_HOST || fallback.host;
  const port = Number(process.env.SMTP_PORT || fallback.port);
  if (host !== fallback.host || port !== fallback.port) return null;
  return startLocalMail({
    smtpPort: await pickPort(options.smtpPort, fallback.port),
    webPort: await pickPort(options.webPort, DEFAULT_WEB_PORT),
  });
}

/**
 * One maildev process on loopback, in its own directory (the test of a stopped server starts and
 * stops a second one). Its own process: maildev keeps module-wide state and exits on SIGINT.
 * @param {{ smtpPort: number, webPort: number }} ports
 */
export async function startLocalMail({ smtpPort, webPort }) {
  const mailDirectory = mkdtempSync(join(tmpdir(), "afx-maildev-"));
  const child = spawn(
    process.execPath,
    [
      MAILDEV,
      "--ip",
      "127.0.0.1",
      "--smtp",
      String(smtpPort),
      "--web",
      String(webPort),
      "--mail-directory",
      mailDirectory,
      "--silent",
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  const inboxUrl = `http://localhost:${webPort}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(mailDirectory, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${webPort}/healthz`, { child, timeoutMs: 30_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { smtpHost: "127.0.0.1", smtpPort, inboxUrl, stop };
}

async function pickPort(requested, preferred) {
  if (requested !== undefined) return requested || freePort();
  return (await isFree(preferred)) ? preferred : freePort();
}

function isFree(port) {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once("error", () => resolveFree(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolveFree(true)));
  });
}
