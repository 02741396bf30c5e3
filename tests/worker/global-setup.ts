// Runs in Node before either workerd pool starts (tests/worker/, tests/server/ and tests/mail/):
// the local OpenID provider and the local SMTP server with its inbox (the ones `npm start` uses)
// on free loopback ports. tests/fixtures/workers-pool.ts hands them to the worker as
// OAUTH_ISSUER, SMTP_HOST and SMTP_PORT.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import type { TestProject } from "vitest/node";
import { startLocalMail, startLocalMailIfNeeded } from "../../scripts/lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";
import { freePort } from "../../scripts/lib/local-worker.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    oidcIssuer: string;
    stallingIssuer: string;
    smtpHost: string;
    smtpPort: string;
    /** The local inbox's web address (its REST API: tests/fixtures/inbox.ts). */
    inboxURL: string;
    /** A loopback port nobody listens on: an SMTP server that is down. */
    closedSmtpPort: string;
    /** A second local SMTP server the outage tests stop and start (POST {outageControlURL}/stop|start). */
    outageSmtpPort: string;
    outageInboxURL: string;
    outageControlURL: string;
    /** An SMTP server that answers each message SLOW_SMTP_MS late (tests/mail/mail-backlog.test.ts). */
    slowSmtpPort: string;
    /** GET: the recipients it accepted, one entry per delivery, as a JSON array. */
    slowSmtpReceivedURL: string;
    /** Implicit TLS (as on port 465) with smtp-server's self-signed certificate, which workerd does not trust. */
    tlsSmtpPort: string;
    /** STARTTLS offered (as on port 587), the same certificate. */
    startTlsSmtpPort: string;
    /** AUTH required (offered in clear), every login refused with 535. */
    authSmtpPort: string;
    /** GET: how many sessions the AUTH server ended with a QUIT, as JSON. */
    authSmtpQuitsURL: string;
  }
}

export default async function setup(project: TestProject) {
  const provider = await startLocalProviderIfNeeded({ port: 0, redirectHosts: ["afx.test"] });
  if (!provider) throw new Error("OAUTH_ISSUER names a real provider: unset it for the worker tests");
  project.provide("oidcIssuer", provider.issuer);
  const stalling = await startStallingProvider();
  project.provide("stallingIssuer", stalling.issuer);
  const mail = await startLocalMailIfNeeded({ smtpPort: 0, webPort: 0 });
  if (!mail) throw new Error("SMTP_HOST/SMTP_PORT name a real server: unset them for the worker tests");
  project.provide("smtpHost", mail.smtpHost);
  project.provide("smtpPort", String(mail.smtpPort));
  project.provide("inboxURL", mail.inboxUrl);
  project.provide("closedSmtpPort", String(await freePort()));
  // The inner loop (FAST=1) runs no tests/mail/ and no tests/worker/: none of the servers below.
  if (process.env.FAST === "1")
    return async () => {
      await provider.stop();
      await stalling.stop();
      await mail.stop();
    };
  const outage = await startOutageMail();
  project.provide("outageSmtpPort", String(outage.smtpPort));
  project.provide("outageInboxURL", outage.inboxUrl);
  project.provide("outageControlURL", outage.controlUrl);
  const slow = await startSlowMail();
  project.provide("slowSmtpPort", String(slow.smtpPort));
  project.provide("slowSmtpReceivedURL", slow.receivedUrl);
  const misfits = await startMisfitMail();
  project.provide("tlsSmtpPort", String(misfits.tlsPort));
  project.provide("startTlsSmtpPort", String(misfits.startTlsPort));
  project.provide("authSmtpPort", String(misfits.authPort));
  project.provide("authSmtpQuitsURL", misfits.quitsUrl);
  return async () => {
    await provider.stop();
    await stalling.stop();
    await mail.stop();
    await outage.stop();
    await slow.stop();
    await misfits.stop();
  };
}

/**
 * A provider that stalls: its discovery document answers, every other path (the token endpoint,
 * or an issuer under /hang) accepts the connection and never answers.
 */
async function startStallingProvider() {
  const pending = new Set<import("node:http").ServerResponse>();
  const server = createServer((req, res) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === "/.well-known/openid-configuration") {
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        }),
      );
      return;
    }
    pending.add(res); // never answered
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => {
      for (const res of pending) res.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * A second real SMTP server (maildev) that a test stops and starts again on the same ports over a
 * small HTTP control (POST /stop, POST /start): the shared one keeps serving the other files.
 */
async function startOutageMail() {
  const ports = { smtpPort: await freePort(), webPort: await freePort() };
  let mail: Awaited<ReturnType<typeof startLocalMail>> | null = await startLocalMail(ports);
  const control = createServer((req, res) => {
    const run = async () => {
      if (req.method === "POST" && req.url === "/stop") {
        await mail?.stop();
        mail = null;
      } else if (req.method === "POST" && req.url === "/start") {
        mail ??= await startLocalMail(ports);
      } else {
        res.statusCode = 404;
      }
    };
    run().then(
      () => res.end(),
      (error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((r) => control.listen(0, "127.0.0.1", r));
  return {
    smtpPort: ports.smtpPort,
    inboxUrl: `http://127.0.0.1:${ports.webPort}`,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    stop: async () => {
      await mail?.stop();
      await new Promise<void>((r) => control.close(() => r()));
    },
  };
}

/** How late the slow server answers the end of each message: longer than the lease a late Cron run used to hand out. */
const SLOW_SMTP_MS = 3_000;

/**
 * A real SMTP server (nodemailer's smtp-server, the one maildev is built on) whose timing and
 * replies the tests choose, which maildev's are not: it answers each message SLOW_SMTP_MS after
 * its end, refuses recipients named `refused-…@` for good (550) and `busy-…@` for now (451), and
 * lists every delivery it accepted (GET {receivedUrl}), so a duplicate shows.
 */
async function startSlowMail() {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
      if (address.address.startsWith("refused-")) return callback(refusal(550, "5.1.1 no such mailbox here"));
      if (address.address.startsWith("busy-")) return callback(refusal(451, "4.3.0 mailbox busy, try again later"));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () =>
        setTimeout(() => {
          received.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        }, SLOW_SMTP_MS),
      );
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  const control = createServer((_req, res) => {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(received));
  });
  await new Promise<void>((r) => control.listen(0, "127.0.0.1", r));
  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    receivedUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}/received`,
    stop: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => control.close(() => r()));
    },
  };
}

/**
 * Real SMTP servers (nodemailer's smtp-server) set up the ways an operator's settings go wrong
 * (tests/mail/smtp-diagnosis.test.ts): implicit TLS and STARTTLS with a self-signed certificate
 * (which workerd does not trust), and one that refuses every login.
 */
async function startMisfitMail() {
  const dir = mkdtempSync(join(tmpdir(), "afx-smtp-tls-"));
  // prettier-ignore
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
  const tls = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
  const sink = (stream: NodeJS.ReadableStream, _session: unknown, callback: () => void) => {
    stream.resume();
    stream.on("end", callback);
  };
  let quits = 0;
  const quiet = () => {};
  // Counts the server's 221 (its answer to QUIT): whether our error paths end the session politely.
  const logger = {
    trace: quiet,
    info: quiet,
    warn: quiet,
    error: quiet,
    fatal: quiet,
    debug: (...args: unknown[]) => {
      if (/S:.*\b221\b/.test(args.map(String).join(" "))) quits++;
    },
  };
  const servers = [
    new SMTPServer({
      ...tls,
      secure: true,
      authOptional: true,
      disabledCommands: ["AUTH"],
      logger: false,
      onData: sink,
    }),
    new SMTPServer({ ...tls, authOptional: true, disabledCommands: ["AUTH"], logger: false, onData: sink }),
    new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: logger as never,
      onAuth: (_auth, _session, callback) =>
        callback(Object.assign(new Error("5.7.8 Authentication credentials invalid"), { responseCode: 535 })),
      onData: sink,
    }),
  ];
  for (const smtp of servers) {
    // A client that drops a handshake (as workerd does on a certificate it refuses) is an 'error'
    // event, which would end this process.
    smtp.on("error", () => {});
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  }
  const control = createServer((_req, res) => {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(quits));
  });
  await new Promise<void>((r) => control.listen(0, "127.0.0.1", r));
  const [tlsPort, startTlsPort, authPort] = servers.map((smtp) => (smtp.server.address() as AddressInfo).port);
  return {
    tlsPort: tlsPort!,
    startTlsPort: startTlsPort!,
    authPort: authPort!,
    quitsUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}/quits`,
    stop: async () => {
      for (const smtp of servers) await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => control.close(() => r()));
    },
  };
}
