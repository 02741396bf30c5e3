import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { NEWSLETTER_TEXT as T, signupAnchor } from "~/features/leads/newsletter";
import { listMail, waitForMail, type InboxMail } from "../fixtures/inbox";
import { signIn } from "./account";
import { hydrated, launch, newPage, screenshot } from "./browser";

// The double opt-in as a person lives it, in Chromium against the real local SMTP server and its
// inbox: sign up, receive one e-mail, open its link, press the button; the admin then sees the
// subscriber. With JavaScript on (footer, blog, exit popup) and off (form posts all the way).

const inbox = inject("inboxURL");
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

let n = 0;
const uniqueEmail = (tag: string) => `doi-${tag}-${Date.now().toString(36)}-${n++}@example.com`;
const block = (page: Page, source: string) => page.locator(`#${signupAnchor(source)}`);

async function signUp(page: Page, source: string, email: string) {
  const form = block(page, source);
  if ((await form.getByLabel("First name").count()) > 0) await form.getByLabel("First name").fill("Dora");
  await form.getByLabel(/^Email/).fill(email);
  await form.getByRole("button", { name: T.submit }).click();
  await form.getByText(T.success).waitFor();
}

function link(mail: InboxMail, kind: "confirm" | "unsubscribe") {
  const match = mail.text.match(new RegExp(`https?://[^\\s]+/newsletter/${kind}/[A-Za-z0-9_.-]+`));
  expect(match, `a ${kind} link in the e-mail`).not.toBeNull();
  return match![0];
}

/** The one confirmation e-mail of `email`, checked for both parts and the one-click headers. */
async function confirmationMail(email: string) {
  const mail = await waitForMail(inbox, { to: email, subject: CONFIRMATION_SUBJECT });
  expect(await listMail(inbox, { to: email })).toHaveLength(1);
  expect(mail.html).toContain(`href="${link(mail, "confirm")}"`);
  expect(mail.text).toContain("AFX Holding Group");
  expect(mail.headers["list-unsubscribe"]).toBe(`<${link(mail, "unsubscribe")}>`);
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  return mail;
}

async function pressConfirm(page: Page, confirmUrl: string) {
  await page.goto(confirmUrl);
  await page.getByRole("heading", { name: "Confirm your subscription", level: 1 }).waitFor();
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/newsletter/confirmed"),
    page.getByRole("button", { name: "Confirm subscription" }).click(),
  ]);
  await page.getByRole("heading", { name: "Subscription confirmed", level: 1 }).waitFor();
}

describe("double opt-in in the browser", () => {
  it("with JavaScript: footer, blog and exit popup each send one e-mail; its link and button confirm; the admin sees them", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const emails = { footer: uniqueEmail("footer"), blog: uniqueEmail("blog"), popup: uniqueEmail("popup") };
    // Fake timers that flow like real ones, so that the popup's 3 s can be jumped below.
    await page.clock.install();

    await page.goto("/portfolio");
    await hydrated(page);
    await signUp(page, "footer", emails.footer);

    await page.goto("/blog");
    await hydrated(page);
    await signUp(page, "blog", emails.blog);

    await page.goto("/portfolio");
    await hydrated(page);
    // The exit popup: armed after 3 s (the product's rule), opened by leaving through the top edge.
    await page.clock.fastForward(3_200);
    await page.mouse.move(400, 200);
    await page.mouse.move(400, 5);
    await page.evaluate(() =>
      document.documentElement.dispatchEvent(
        new MouseEvent("mouseout", { bubbles: true, clientX: 400, clientY: -1, relatedTarget: null }),
      ),
    );
    await page.getByRole("dialog", { name: "Wait! Before you go..." }).waitFor();
    await signUp(page, "popup", emails.popup);

    for (const [source, email] of Object.entries(emails)) {
      const mail = await confirmationMail(email);
      // Opening the link (as a mail scanner would) changes nothing: the button does.
      await pressConfirm(page, link(mail, "confirm"));
      if (source === "footer") await screenshot(page, "newsletter-confirmed");
    }

    await signIn(page, "admin@example.com", "/admin/leads");
    for (const email of Object.values(emails)) await page.getByRole("cell", { name: email, exact: true }).waitFor();
    const csv = await (await page.request.get("/admin/leads.csv")).text();
    for (const [source, email] of Object.entries(emails))
      expect(csv).toMatch(new RegExp(`"${email}","[^"]*","[^"]*","${source}"`));
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("without JavaScript: the footer's form post, the confirmation and the unsubscribe page all work", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const email = uniqueEmail("nojs");
    await page.goto("/portfolio");
    const form = block(page, "footer");
    await form.getByLabel(/^Email/).fill(email);
    await Promise.all([
      page.waitForURL((url) => url.hash === "#newsletter-footer"),
      form.getByRole("button", { name: T.submit }).click(),
    ]);
    await form.getByText(T.success).waitFor();

    const mail = await confirmationMail(email);
    await page.goto(link(mail, "confirm"));
    await screenshot(page, "newsletter-confirm-page");
    await pressConfirm(page, link(mail, "confirm"));

    // The e-mail's unsubscribe link: one button, then the outcome page with the signup again.
    await page.goto(link(mail, "unsubscribe"));
    // A question naming the address; nothing claimed before the button.
    await page
      .getByRole("heading", {
        name: `Unsubscribe ${email[0]}•••@${email.split("@")[1]} from the newsletter?`,
        level: 1,
      })
      .waitFor();
    expect(await page.getByText("You are unsubscribed").count()).toBe(0);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/newsletter/unsubscribed"),
      page.getByRole("button", { name: "Unsubscribe" }).click(),
    ]);
    await page.getByRole("heading", { name: "You are unsubscribed", level: 1 }).waitFor();
    await screenshot(page, "newsletter-unsubscribed");

    // Back to the used link in this browser: it knows the visitor just confirmed.
    const back = await page.goto(link(mail, "confirm"));
    expect(back?.status()).toBe(200);
    await page.getByRole("heading", { name: "Subscription confirmed", level: 1 }).waitFor();
    await context.close();

    // Anywhere else a used link is a clear page with a 404 and the signup, not an error.
    const other = await newPage(browser, { javaScriptEnabled: false });
    const used = await other.page.goto(link(mail, "confirm"));
    expect(used?.status()).toBe(404);
    await other.page.getByRole("heading", { name: "This link is not valid", level: 1 }).waitFor();
    expect(await block(other.page, "newsletter").count()).toBe(1);
    await other.context.close();
  });

  it("a stranger's signup: the e-mail holds none of their text, and its \"this wasn't me\" link stops every later signup's e-mail", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const email = uniqueEmail("notme");
    await page.goto("/blog");
    const form = block(page, "blog");
    await form.getByLabel("First name").fill("Claim your refund at https://evil.example/r");
    await form.getByLabel(/^Email/).fill(email);
    await Promise.all([
      page.waitForURL((url) => url.hash === "#newsletter-blog"),
      form.getByRole("button", { name: T.submit }).click(),
    ]);
    await form.getByText(T.success).waitFor();

    const mail = await confirmationMail(email);
    expect(mail.text.split(/\r?\n/)[0]).toBe("Hello,");
    expect(`${mail.text}${mail.html}`).not.toContain("evil.example");
    expect(mail.text).toContain("Not you? Unsubscribe");
    // Signed with a mail key, named in the link (lead id, key id, signature): not the cookies' secret.
    expect(new URL(link(mail, "unsubscribe")).pathname).toMatch(
      /^\/newsletter\/unsubscribe\/\d+\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{43}$/,
    );

    // The victim follows the e-mail's unsubscribe link and presses its button.
    await page.goto(link(mail, "unsubscribe"));
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/newsletter/unsubscribed"),
      page.getByRole("button", { name: "Unsubscribe" }).click(),
    ]);
    await page.getByRole("heading", { name: "You are unsubscribed", level: 1 }).waitFor();

    // The stranger tries again, with the address and with a +tag of it; then someone else signs up.
    const tagged = email.replace("@", "+again@");
    const control = uniqueEmail("control");
    for (const address of [email, tagged, control]) {
      await page.goto("/portfolio");
      await block(page, "footer")
        .getByLabel(/^Email/)
        .fill(address);
      await Promise.all([
        page.waitForURL((url) => url.hash === "#newsletter-footer"),
        block(page, "footer").getByRole("button", { name: T.submit }).click(),
      ]);
      await block(page, "footer").getByText(T.success).waitFor();
    }
    // Mail goes out in the order it was queued: once the last signup's e-mail is in, nothing else is coming.
    await waitForMail(inbox, { to: control, subject: CONFIRMATION_SUBJECT });
    expect(await listMail(inbox, { to: email })).toHaveLength(1);
    expect(await listMail(inbox, { to: tagged })).toHaveLength(0);
    await context.close();
  });
});
