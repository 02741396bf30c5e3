import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { localDefaultSmtp, startLocalMailIfNeeded } from "../../scripts/lib/local-mail.mjs";
import { listMail } from "../fixtures/inbox";

// The local SMTP server and inbox of `npm start` and the tests (scripts/lib/local-mail.mjs).
function withEnv(name: "SMTP_HOST" | "SMTP_PORT", value: string, run: () => Promise<void>) {
  const saved = process.env[name];
  process.env[name] = value;
  return run().finally(() => {
    // Not `delete`: the generated worker types declare every var of wrangler.toml on process.env.
    if (saved === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = saved;
  });
}

function block(port: number): Promise<Server | null> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

describe("startLocalMailIfNeeded", () => {
  it("stays out of the way when SMTP_HOST or SMTP_PORT names another server", async () => {
    await withEnv("SMTP_HOST", "smtp.postmarkapp.com", async () => {
      await expect(startLocalMailIfNeeded({ smtpPort: 0, webPort: 0 })).resolves.toBeNull();
    });
    await withEnv("SMTP_PORT", "2525", async () => {
      await expect(startLocalMailIfNeeded({ smtpPort: 0, webPort: 0 })).resolves.toBeNull();
    });
  });

  // A real maildev process starts: seconds on a loaded machine, beyond vitest's 5 s default.
  it("takes free ports when the default ones are in use, answers on its inbox, and stops", async () => {
    const { port: smtpDefault } = localDefaultSmtp();
    const blockers = await Promise.all([block(smtpDefault), block(1080)]);
    const mail = await startLocalMailIfNeeded();
    try {
      expect(mail).not.toBeNull();
      // Either we held the ports, or someone else does (another npm start): never the same ones.
      expect(mail!.smtpPort).not.toBe(smtpDefault);
      expect(new URL(mail!.inboxUrl).port).not.toBe("1080");
      expect(await listMail(mail!.inboxUrl, { to: "nobody@afx.test" })).toEqual([]);
    } finally {
      await mail?.stop();
      await Promise.all(blockers.map((b) => b && new Promise((r) => b.close(r))));
    }
    await expect(listMail(mail!.inboxUrl, { to: "nobody@afx.test" })).rejects.toThrow();
  }, 30_000);
});
