// MAIL_TRANSPORT = "email-service" locally: a worker of its own (wrangler dev, which simulates the
// `send_email` binding), a signup in Chromium, and its confirmation read back from wrangler's local
// explorer as JSON (docs/mail.md: what a newcomer opens to see the mail).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { NEWSLETTER_TEXT as T, signupAnchor } from "~/features/leads/newsletter";
import { hydrated, launch } from "./browser";
import { startOwnWorker, type OwnWorker } from "./own-worker";

/** Where wrangler dev's explorer lists the mail the simulated binding was given. */
const EXPLORER_MAIL = "/cdn-cgi/local/explorer/api/local/email/sending";

let browser: Browser;
let worker: OwnWorker;

beforeAll(async () => {
  worker = await startOwnWorker("mail-service", { MAIL_TRANSPORT: "email-service" });
  browser = await launch();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

/** The explorer's list of sent mail, until one to `to` is in it. */
async function sentTo(to: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${worker.url}${EXPLORER_MAIL}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as unknown;
    const found = JSON.stringify(body).includes(to) ? body : null;
    if (found) return found as Record<string, unknown>;
    if (Date.now() > until) throw new Error(`no mail to ${to} in the explorer: ${JSON.stringify(body).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("a signup with the Email Service transport", () => {
  it(
    "sends its confirmation through the simulated binding, and the local explorer lists it",
    { timeout: 90_000 },
    async () => {
      const email = `mail-service-${Date.now().toString(36)}@example.com`;
      const context = await browser.newContext({ baseURL: worker.url });
      const page = await context.newPage();
      await page.goto("/portfolio");
      await hydrated(page);
      const form = page.locator(`#${signupAnchor("footer")}`);
      if ((await form.getByLabel("First name").count()) > 0) await form.getByLabel("First name").fill("Esme");
      await form.getByLabel(/^Email/).fill(email);
      await form.getByRole("button", { name: T.submit }).click();
      await form.getByText(T.success).waitFor();

      const listed = (await sentTo(email)) as {
        result: { from: string; to: string[]; subject: string; messageId: string; headers: Record<string, string> }[];
      };
      const mails = listed.result.filter((m) => m.to.includes(email));
      expect(mails).toHaveLength(1);
      console.log("[explorer]", JSON.stringify(mails[0]));
      expect(mails[0]).toMatchObject({
        from: '"AFX Holding Group" <newsletter@example.com>',
        subject: CONFIRMATION_SUBJECT,
        messageId: expect.stringMatching(/^<.+@example\.com>$/),
      });
      // The same one-click unsubscribe headers as over SMTP; the Message-ID is the platform's.
      expect(mails[0]!.headers).toEqual({
        "List-Unsubscribe": expect.stringMatching(
          new RegExp(`^<${worker.url}/newsletter/unsubscribe/[A-Za-z0-9_.-]+>$`),
        ),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
      await context.close();
    },
  );
});
