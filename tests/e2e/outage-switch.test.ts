// The local outage switch against a real `wrangler dev` of this file's own (the shared worker keeps
// serving the other files), thrown with `npm run fault` as docs/operate.md says, with plain HTTP (no
// browser): while D1 fails, the pages visited before answer 200 with their content, a page never
// rendered 503 in words, a signup 202, /admin/leads 503; once D1 is back the signup's confirmation
// e-mail reaches the inbox. While R2 fails, a document answers 503 and the library still lists it.
import { execFile } from "node:child_process";
import { request } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalMail } from "../../scripts/lib/local-mail.mjs";
import { freePort } from "../../scripts/lib/local-worker.mjs";
import { waitForMail } from "../fixtures/inbox";
import { startOwnWorker, type OwnWorker } from "./own-worker";

const run = promisify(execFile);
let worker: OwnWorker;
let mail: Awaited<ReturnType<typeof startLocalMail>>;
let inbox: string;

beforeAll(async () => {
  const ports = { smtpPort: await freePort(), webPort: await freePort() };
  mail = await startLocalMail(ports);
  inbox = `http://127.0.0.1:${ports.webPort}`;
  worker = await startOwnWorker("fault", { SMTP_HOST: mail.smtpHost, SMTP_PORT: String(ports.smtpPort) });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await mail?.stop();
});

/** `PORT=<port> npm run fault -- <kind> <state>`, as an operator types it. */
async function fault(kind: "d1" | "r2", state: "on" | "off") {
  const { stdout } = await run("npm", ["run", "--silent", "fault", "--", kind, state], {
    env: { ...process.env, PORT: String(worker.url.split(":").at(-1)) },
  });
  expect(stdout.trim()).toBe(`${kind} ${state}`);
}

/**
 * A request as curl sends it (node:http: Node's fetch adds Sec-Fetch-Mode: cors, which the HTML
 * cache never answers, worker/html-cache.ts).
 */
function page(
  path: string,
  { method = "GET", body, headers = {} }: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const req = request(`${worker.url}${path}`, { method, headers: { Accept: "text/html", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: new Headers(Object.entries(res.headers).map(([k, v]): [string, string] => [k, String(v)])),
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const PAGES = ["/", "/portfolio", "/investors", "/documents", "/news"];

describe("the local outage switch (npm run fault)", () => {
  it("D1 down: cached pages 200, a new page 503 in words, a signup kept (mailed once D1 is back), admin 503", async () => {
    const bodies = new Map<string, string>();
    for (const path of PAGES) {
      await expect
        .poll(async () => (await page(path)).headers.get("server-timing"), { timeout: 20_000 })
        .toMatch(/desc="hit"/);
      bodies.set(path, (await page(path)).text);
    }
    await fault("d1", "on");
    try {
      for (const path of PAGES) {
        const res = await page(path);
        expect(res.status, path).toBe(200);
        expect(res.text, path).toBe(bodies.get(path));
      }
      const never = await page(`/legal?never=${Date.now()}`);
      expect(never.status).toBe(503);
      expect(Number(never.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(never.text).toContain("briefly unavailable");

      const email = `kept-${Date.now().toString(36)}@example.com`;
      const signup = await page("/api/leads", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email, firstName: "Kept", source: "e2e" }),
      });
      expect(signup.status).toBe(202);

      const admin = await page("/admin/leads");
      expect(admin.status).toBe(503);
      expect(admin.text).toContain("The database is unavailable");

      await fault("d1", "off");
      const confirmation = await waitForMail(inbox, { to: email }, { timeoutMs: 60_000 });
      expect(confirmation.subject).toMatch(/confirm/i);
    } finally {
      await fault("d1", "off");
    }
  }, 150_000);

  it("R2 down: a document 503 with Retry-After while /documents lists it; 200 again after", async () => {
    const library = (await page("/documents")).text;
    const path = library.match(/href="(\/documents\/[^"]+\.pdf)"/)?.[1];
    expect(path).toBeTruthy();
    await fault("r2", "on");
    try {
      const down = await fetch(`${worker.url}${path}`);
      expect(down.status).toBe(503);
      expect(down.headers.get("retry-after")).toBeTruthy();
      await down.arrayBuffer();
      const listed = await page("/documents");
      expect(listed.status).toBe(200);
      expect(listed.text).toContain(`href="${path}"`);
    } finally {
      await fault("r2", "off");
    }
    const back = await fetch(`${worker.url}${path}`);
    expect(back.status).toBe(200);
    await back.arrayBuffer();
  }, 60_000);
});
