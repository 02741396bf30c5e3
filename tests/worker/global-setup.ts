// Runs in Node before the workerd pool starts: the local OpenID provider and the local SMTP server
// with its inbox (the ones `npm start` uses) on free loopback ports. vitest.config.ts hands them to
// the worker as OAUTH_ISSUER, SMTP_HOST and SMTP_PORT.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startLocalMailIfNeeded } from "../../scripts/lib/local-mail.mjs";
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
  return async () => {
    await provider.stop();
    await stalling.stop();
    await mail.stop();
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
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }));
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
