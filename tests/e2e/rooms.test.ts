// Investor rooms in Chromium with JavaScript off (docs/rooms.md): the admin opens a FiscalMe room
// with an NDA, downloads off and the watermark on, adds the pitch deck and invites three investors;
// one follows the mailed link, proves the address with the mailed code, accepts the NDA and reads
// the copy, whose every page carries the address (read with PDF.js); the owner hears once; the
// pipeline shows the investor opened and takes the stage "Meeting". Each page on the way is
// checked with axe and at 412 px. The logic and guards are
// tests/server/room-routes.test.ts's.
import type { Browser, Page } from "playwright-core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listMail, waitForMail } from "../fixtures/inbox";
import { signIn } from "./account";
import { axeViolations, WCAG_AA } from "./axe";
import { launch, newPage, screenshot } from "./browser";
import { PHONE, overflow } from "./fit";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const inbox = inject("inboxURL");
const tag = Date.now().toString(36);
const DOMAIN = "@examplecompanies.co.uk";
const LONG_WORD = `Vertraulichkeitsvereinbarungsunterlagen${tag}`.padEnd(64, "x");
const TITLE = `${LONG_WORD} FiscalMe seed round, the full data room for the lead investor`;
const INVESTOR = `ada.${tag}@example.com`;
const OTHERS = [
  `alexandria.konstantinopoulou.${tag}`.padEnd(64 - DOMAIN.length, "s") + DOMAIN,
  `bo.${tag}@example.com`,
];

/**
 * axe finds nothing and the page is no wider than the phone; a screenshot for the record. axe needs
 * timers, which a page without JavaScript lacks: it reads the same HTML (its scripts left out) in a
 * page that runs scripts, served at the same address so its styles load.
 */
async function check(page: Page, name: string) {
  const html = (await page.content()).replace(/<script[\s\S]*?<\/script>/g, "");
  const { page: scan, context } = await newPage(browser, { viewport: PHONE });
  await scan.route(page.url(), (route) => route.fulfill({ body: html, contentType: "text/html" }));
  await scan.goto(page.url());
  expect(await axeViolations(scan, WCAG_AA), name).toEqual([]);
  await context.close();
  const { extra, past } = await overflow(page);
  expect(extra, `${name} is ${extra} px too wide: ${past.join(", ")}`).toBe(0);
  await screenshot(page, `rooms-${name}`);
}

/**
 * Posts a form without JavaScript and waits for the answer's page to load: a redirect back to the
 * same path would satisfy waitForURL at once, before the new page is there.
 */
async function submit(page: Page, button: string, path: RegExp) {
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button, exact: true }).click()]);
  expect(new URL(page.url()).pathname).toMatch(path);
}

/** A real one-page PDF (the room's watermark reads it), with `label` on its page. */
async function realPdf(label: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText(label, { x: 48, y: 780, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await pdf.save());
}

/** Each page's text, as PDF.js extracts it. */
async function pagesText(bytes: Buffer): Promise<string[]> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: true });
  const pdf = await task.promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await task.destroy();
  return texts;
}

describe("an investor room without JavaScript", () => {
  it("the admin opens it and invites; the investor proves the address, accepts the NDA and reads a marked copy", async () => {
    const admin = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    admin.page.setDefaultTimeout(10_000);
    await signIn(admin.page, "admin@example.com", "/admin/rooms");
    await check(admin.page, "admin-list");
    const form = admin.page.locator("form").filter({ has: admin.page.getByRole("button", { name: "Open room" }) });
    await form.getByLabel("Title").fill(TITLE);
    await form.getByLabel("Venture").selectOption("fiscal-me");
    await form.getByLabel(/^NDA/).fill(`**Confidential.** ${LONG_WORD} stays between us.`);
    await form.getByLabel("Allow downloads").uncheck();
    await form.getByLabel(/^Watermark/).check();
    await submit(admin.page, "Open room", /^\/admin\/rooms\/[\w-]{16}$/);
    const roomAdmin = new URL(admin.page.url()).pathname;
    const id = roomAdmin.split("/").pop()!;

    const select = admin.page.locator('select[name="document"]');
    const deck = await select
      .locator("option")
      .filter({ hasText: "FiscalMe Pitch Deck" })
      .first()
      .getAttribute("value");
    await select.selectOption(deck!);
    await submit(admin.page, "Add document", new RegExp(`^${roomAdmin}$`));
    for (const [email, name, firm] of [
      [INVESTOR, "Ada Investor", `Northwind Capital ${tag}`],
      [OTHERS[0]!, "Alexandria Konstantinopoulou-Papadimitriou", `${LONG_WORD} Partners`],
      [OTHERS[1]!, "Bo Banker", "Southwind"],
    ] as const) {
      const invite = admin.page
        .locator("form")
        .filter({ has: admin.page.getByRole("button", { name: "Invite investor" }) });
      await invite.getByLabel("E-mail address").fill(email);
      await invite.getByLabel("Name").fill(name);
      await invite.getByLabel("Firm (optional)").fill(firm);
      await submit(admin.page, "Invite investor", new RegExp(`^${roomAdmin}$`));
    }
    expect(await admin.page.getByTestId("investor-status").count()).toBe(3);
    await check(admin.page, "admin-room");
    await admin.page.goto("/admin/rooms");
    await admin.page.getByRole("link", { name: TITLE }).waitFor();
    await check(admin.page, "admin-list-with-room");

    // Every invitation carries a /rooms/ link; the investor follows theirs.
    for (const email of OTHERS)
      expect((await waitForMail(inbox, { to: email, subject: /invites you to/ })).text).toContain("/rooms/");
    const invitation = await waitForMail(inbox, { to: INVESTOR, subject: /invites you to/ });
    const link = new URL(/https?:\/\/\S+\/rooms\/\S+/.exec(invitation.text)![0]);
    expect(link.pathname).toMatch(new RegExp(`^/rooms/${id}/join/`));
    const investor = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    const { page } = investor;
    page.setDefaultTimeout(10_000);
    await page.goto(link.pathname);
    await check(page, "join");
    await page.getByLabel("Your e-mail address").fill(INVESTOR);
    await submit(page, "Send me a code", /\/join\//);
    await check(page, "code");
    const codeMail = await waitForMail(inbox, { to: INVESTOR, subject: /investor room$/ });
    const codes = codeMail.text.match(/\b\d{6}\b/g) ?? [];
    expect(codes).toHaveLength(1);
    await page.getByLabel("The 6-digit code from the e-mail").fill(codes[0]!);
    await submit(page, "Enter the room", new RegExp(`^/rooms/${id}$`));
    await page.getByRole("heading", { name: "Non-disclosure agreement" }).waitFor();
    await check(page, "nda");
    await page.getByLabel("I have read the agreement above and accept it.").check();
    await page.getByLabel("Your full name, as your signature").fill("Ada Investor");
    await submit(page, "Accept and enter", new RegExp(`^/rooms/${id}$`));
    const document = page.getByRole("link", { name: "FiscalMe Pitch Deck", exact: true });
    await document.waitFor();
    expect(await page.getByTestId("room-copy-note").textContent()).toContain(INVESTOR);
    await check(page, "room");

    // The copy: inline, private, no download anywhere; the address on every page.
    expect(await page.locator("a[download]").count()).toBe(0);
    expect(await page.getByRole("link", { name: /^Download/ }).count()).toBe(0);
    const copy = await page.request.get((await document.getAttribute("href"))!);
    expect(copy.status()).toBe(200);
    expect(copy.headers()["cache-control"]).toMatch(/private|no-store/);
    expect(copy.headers()["content-disposition"]).toMatch(/^inline/);
    const texts = await pagesText(await copy.body());
    expect(texts.length).toBeGreaterThan(0);
    for (const [n, text] of texts.entries()) expect(text, `page ${n + 1}`).toContain(INVESTOR);

    // The owner: one mail for the visit, naming the investor and FiscalMe; the room's page says so.
    const visit = await waitForMail(inbox, { to: "admin@example.com", subject: new RegExp(`opened .*${tag}`) });
    expect(`${visit.subject}\n${visit.text}`).toContain("Ada Investor");
    expect(`${visit.subject}\n${visit.text}`).toContain("FiscalMe");
    await page.reload();
    expect(await listMail(inbox, { to: "admin@example.com", subject: new RegExp(`opened .*${tag}`) })).toHaveLength(1);
    await admin.page.goto(roomAdmin);
    expect(
      await admin.page
        .getByTestId("investor-status")
        .filter({ hasText: /^Opened/ })
        .count(),
    ).toBe(1);

    // The pipeline (decision 118): the investor once, "Opened" with FiscalMe; the stage "Meeting"
    // set with the form (no JavaScript) and in the CSV of the page's filters.
    await admin.page.goto("/admin/investors");
    const row = admin.page.getByTestId("pipeline-investor").filter({ hasText: INVESTOR });
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId("investor-stage").allTextContents()).toEqual(["Opened"]);
    await check(admin.page, "admin-investors");
    await row.getByLabel("Stage of Ada Investor with FiscalMe", { exact: true }).selectOption("Meeting");
    // The form posts to the page's own address and comes back to it: the stage shows once reloaded.
    await row.getByRole("button", { name: "Set stage of Ada Investor with FiscalMe", exact: true }).click();
    await expect.poll(() => row.getByTestId("investor-stage").allTextContents()).toEqual(["Meeting"]);
    await admin.page.goto("/admin/investors?venture=fiscal-me&stage=Meeting");
    await row.waitFor();
    await check(admin.page, "admin-investors-filtered");
    const csv = await admin.page.request.get(
      (await admin.page.getByRole("link", { name: "Export CSV" }).getAttribute("href"))!,
    );
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain(`"${INVESTOR}","Ada Investor","Northwind Capital ${tag}","FiscalMe","Meeting"`);

    // A question (docs/decisions/119): the owner is mailed; the answer, into the FAQ, is mailed back
    // and shows in the room.
    await page.getByLabel("Your question").fill(`What is the burn rate? ${LONG_WORD}`);
    await submit(page, "Send question", new RegExp(`^/rooms/${id}$`));
    await page.getByTestId("room-my-questions").waitFor();
    await check(page, "room-asked");
    await waitForMail(inbox, { to: "admin@example.com", subject: new RegExp(`^Question in .*${tag}`) });
    await admin.page.goto(roomAdmin);
    const asked = admin.page.getByTestId("room-question").first();
    await check(admin.page, "admin-room-question");
    await asked.getByLabel("Your answer").fill(`About 80k EUR a month. ${LONG_WORD}`);
    await asked.getByLabel(/^Add it to the room's questions and answers/).check();
    await submit(admin.page, "Send answer", new RegExp(`^${roomAdmin}$`));
    await waitForMail(inbox, { to: INVESTOR, subject: /^Answer: your question/ });
    await page.reload();
    await page.getByTestId("room-faq").waitFor();
    await check(page, "room-faq");

    // Updates to readers: a rooms-only document the investor opens, then its new version; the
    // mail's stop link asks, then stops.
    const docTitle = `Rooms-only data pack ${tag}`;
    await admin.page.goto("/admin/documents");
    const upload = admin.page.locator("form#new-document");
    await upload.getByLabel("Title").fill(docTitle);
    await upload.getByLabel("Category").selectOption("Reports");
    await upload.getByLabel("Visibility").selectOption({ label: "Rooms only" });
    await upload.getByLabel(/^PDF file/).setInputFiles({
      name: "data-pack.pdf",
      mimeType: "application/pdf",
      buffer: await realPdf(`v1 ${tag}`),
    });
    await submit(admin.page, "Upload", /^\/admin\/documents\/[\w-]{12}$/);
    const documentAdmin = new URL(admin.page.url()).pathname;
    await admin.page.goto(roomAdmin);
    const pack = await admin.page
      .locator('select[name="document"] option')
      .filter({ hasText: docTitle })
      .getAttribute("value");
    await admin.page.locator('select[name="document"]').selectOption(pack!);
    await submit(admin.page, "Add document", new RegExp(`^${roomAdmin}$`));
    await page.reload();
    const packCopy = await page.request.get(
      (await page.getByRole("link", { name: docTitle, exact: true }).getAttribute("href"))!,
    );
    expect(packCopy.status()).toBe(200);
    await admin.page.goto(documentAdmin);
    const version = admin.page.locator("form#new-version");
    await version.getByLabel(/^What changed/).fill("The cap table on page 1.");
    await version.getByLabel(/^PDF file/).setInputFiles({
      name: "data-pack-v2.pdf",
      mimeType: "application/pdf",
      buffer: await realPdf(`v2 ${tag}`),
    });
    await Promise.all([
      admin.page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(documentAdmin)),
      version.getByRole("button", { name: "Upload new version" }).click(),
    ]);
    const updated = await waitForMail(inbox, { to: INVESTOR, subject: `Updated: ${docTitle}` });
    expect(updated.text).toContain("What changed: The cap table on page 1.");
    const stop = new URL(/one click\): (\S+)/.exec(updated.text)![1]!).pathname;
    expect(stop).toMatch(new RegExp(`^/rooms/${id}/updates/`));
    await page.goto(stop);
    await check(page, "updates-stop");
    await submit(page, "Stop update e-mails", new RegExp(`^/rooms/${id}/updates/`));
    await page.getByRole("heading", { name: "Update e-mails stopped" }).waitFor();
    await check(page, "updates-stopped");

    expect(admin.consoleErrors.concat(investor.consoleErrors)).toEqual([]);
    await investor.context.close();
    await admin.context.close();
  }, 180_000);
});
