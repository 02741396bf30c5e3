// The SMTP server down during a burst of signups, in Chromium against a worker and a local SMTP
// server of this file's own (the suite's shared server keeps serving the other files): every
// signup succeeds, the admin dashboard shows the mail waiting, and once the server is back every
// confirmation e-mail arrives exactly once, through the mail queue's retries, with no Cron Trigger.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWSLETTER_TEXT as T, signupAnchor } from "~/features/leads/newsletter";
import { startLocalMail } from "../../scripts/lib/local-mail.mjs";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";
import { freePort } from "../../scripts/lib/local-worker.mjs";
import { listMail, waitForMail } from "../fixtures/inbox";
import { launch } from "./browser";
import { startOwnWorker, type OwnWorker } from "./own-worker";

let browser: Browser;
let worker: OwnWorker;
let mail: Awaited<ReturnType<typeof startLocalMail>> | null;
let provider: Awaited<ReturnType<typeof startLocalProviderIfNeeded>>;
const ports = { smtpPort: 0, webPort: 0 };

beforeAll(async () => {
  Object.assign(ports, { smtpPort: await freePort(), webPort: await freePort() });
  mail = await startLocalMail(ports);
  provider = await startLocalProviderIfNeeded({ port: 0 });
  worker = await startOwnWorker("outage", {
    SMTP_HOST: mail.smtpHost,
    SMTP_PORT: String(ports.smtpPort),
    LEADS_RATE_LIMIT: "1000/60",
    ...(provider ? { OAUTH_ISSUER: provider.issuer } : {}),
  });
  browser = await launch();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await mail?.stop();
  await provider?.stop();
});

describe("mail when the SMTP server is down", () => {
  it("a burst while it is stopped: the dashboard shows the mail waiting; once it is back every e-mail arrives exactly once", async () => {
    const context = await browser.newContext({ baseURL: worker.url });
    const page = await context.newPage();
    const run = Date.now().toString(36);
    const addresses = Array.from({ length: 20 }, (_, i) => `outage-${run}-${i}@example.com`);

    await mail!.stop();
    mail = null;
    // One signup through the footer's form (no JavaScript needed), the rest at once through the API.
    await page.goto("/portfolio");
    const footer = page.locator(`#${signupAnchor("footer")}`);
    await footer.getByLabel(/^Email/).fill(addresses[0]!);
    await footer.getByRole("button", { name: T.submit }).click();
    await footer.getByText(T.success).waitFor();
    const answers = await Promise.all(
      addresses
        .slice(1)
        .map((email) =>
          page.request.post("/api/leads", { data: { email, firstName: "Out", source: "e2e" } }).then((r) => r.status()),
        ),
    );
    expect(answers).toEqual(addresses.slice(1).map(() => 201));

    // The admin sees the mail waiting (every first attempt fails at once: connection refused).
    await page.goto(`/api/login?returnTo=${encodeURIComponent("/admin/leads")}`);
    await page.getByLabel("E-mail").fill("admin@example.com");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/admin/leads"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    await page.getByRole("heading", { name: "E-mails waiting to be sent" }).waitFor();
    expect(Number(await page.getByTestId("mail-queue-depth").textContent())).toBe(addresses.length);

    // The server comes back on the same port; the queue's retries (30 s, then 1 min) deliver.
    mail = await startLocalMail(ports);
    const inbox = mail.inboxUrl;
    for (const to of addresses)
      await waitForMail(inbox, { to, subject: /Confirm your subscription/ }, { timeoutMs: 120_000 });
    // A few seconds more, for a duplicate to show if one were coming.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const to of addresses) expect(await listMail(inbox, { to }), to).toHaveLength(1);
    await page.reload();
    await page.getByRole("heading", { name: "Recent Subscribers" }).waitFor();
    expect(await page.getByTestId("mail-queue").count()).toBe(0);
    await context.close();
  }, 240_000);
});
