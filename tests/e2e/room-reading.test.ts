// What investors read, with their consent (docs/decisions/116-117), in Chromium with JavaScript:
// a GaaS room with an NDA and a three-page deck; one investor ticks `analytics` beside the NDA,
// the other does not; both read page 1 for 11 s (past the viewer's 10 s report) and page 2 for
// 3 s (reported on leaving, pagehide) in the viewer ("Next page"). The owner's reading report shows
// at least 8 s and 2 s on them for the first and no page times for the second; the room's report draws its SVG chart with a table of the deck's pages; the first
// investor's own record lists pages 1 and 2, and "Erase my reading record" empties the report's
// page times while the room still shows they opened it. Guards and sums: tests/server/.
import type { Browser, Page } from "playwright-core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitForMail } from "../fixtures/inbox";
import { signIn } from "./account";
import { axeViolations, WCAG_AA } from "./axe";
import { hydrated, launch, newPage, screenshot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const inbox = inject("inboxURL");
const tag = Date.now().toString(36);
const TITLE = `GaaS series A room ${tag}`;
const DECK = `GaaS three-page deck ${tag}`;
/** Page 1's reading outlasts the viewer's periodic report (REPORT_EVERY_MS); page 2's only its last. */
const READ_MS = { first: 11_000, second: 3_000 };
const READERS = [
  { email: `reader.${tag}@example.com`, name: "Rhea Reader", consent: true },
  { email: `decliner.${tag}@example.com`, name: "Dan Decliner", consent: false },
] as const;

async function deck(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 3; n++)
    pdf.addPage([595, 842]).drawText(`GaaS deck, page ${n}`, { x: 48, y: 780, size: 18, font });
  return Buffer.from(await pdf.save());
}

/** Posts a form and waits for the answer's page to load (a redirect may come back to the same path). */
async function submit(page: Page, button: string) {
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button, exact: true }).click()]);
}

async function noViolations(page: Page, name: string) {
  const found = await axeViolations(page, WCAG_AA);
  await screenshot(page, `room-reading-${name}`);
  expect(found, `${name}: ${found.join("; ")}`).toEqual([]);
}

/** From the invitation mail to the room: the address, the mailed code, the NDA (and the consent box). */
async function enter(page: Page, roomId: string, reader: (typeof READERS)[number]) {
  // With JavaScript the forms answer in place: each step waits for what the next one needs.
  const invitation = await waitForMail(inbox, { to: reader.email, subject: /invites you to/ });
  await page.goto(new URL(/https?:\/\/\S+\/rooms\/\S+/.exec(invitation.text)![0]).pathname);
  await page.getByLabel("Your e-mail address").fill(reader.email);
  await page.getByRole("button", { name: "Send me a code", exact: true }).click();
  const code = /\b\d{6}\b/.exec((await waitForMail(inbox, { to: reader.email, subject: /investor room$/ })).text)![0];
  await page.getByLabel("The 6-digit code from the e-mail").fill(code);
  await page.getByRole("button", { name: "Enter the room", exact: true }).click();
  await page.getByRole("heading", { name: "Non-disclosure agreement" }).waitFor();
  const consent = page.getByLabel("Let AFX Holding Group see which pages I read and for how long");
  // Unticked until the investor ticks it.
  expect(await consent.isChecked()).toBe(false);
  if (reader.consent) await consent.check();
  await page.getByLabel("I have read the agreement above and accept it.").check();
  await page.getByLabel("Your full name, as your signature").fill(reader.name);
  await page.getByRole("button", { name: "Accept and enter", exact: true }).click();
  await page.getByRole("link", { name: DECK, exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/rooms/${roomId}`);
}

/** Pages 1 and 2 in the viewer, 11 s and 3 s, then away (the last report goes on pagehide). */
async function read(page: Page) {
  await page.getByRole("link", { name: `Open in the viewer ${DECK}` }).click();
  const viewer = page.getByTestId("pdf-viewer");
  await viewer.and(page.locator("[data-ready]")).waitFor();
  await hydrated(page);
  expect(await page.getByTestId("pdf-page").textContent()).toBe("Page 1 of 3");
  await page.waitForTimeout(READ_MS.first); // the reading itself: what the report measures
  await page.getByRole("button", { name: "Next page" }).click();
  await expect.poll(() => page.getByTestId("pdf-page").textContent()).toBe("Page 2 of 3");
  await page.waitForTimeout(READ_MS.second);
  await page.goBack();
}

describe("page times with consent", () => {
  it("the consenting reader's report shows seconds per page, the other's none; the chart; the record erased", async () => {
    const admin = await newPage(browser, { javaScriptEnabled: false });
    admin.page.setDefaultTimeout(15_000);
    await signIn(admin.page, "admin@example.com", "/admin/documents");
    const upload = admin.page.locator("form#new-document");
    await upload.getByLabel("Title").fill(DECK);
    await upload.getByLabel("Category").selectOption("Pitch Decks");
    await upload.getByLabel("Venture").selectOption("gaas");
    await upload.getByLabel("Visibility").selectOption({ label: "Rooms only" });
    await upload
      .getByLabel(/^PDF file/)
      .setInputFiles({ name: "deck.pdf", mimeType: "application/pdf", buffer: await deck() });
    await submit(admin.page, "Upload");

    await admin.page.goto("/admin/rooms");
    const form = admin.page.locator("form").filter({ has: admin.page.getByRole("button", { name: "Open room" }) });
    await form.getByLabel("Title").fill(TITLE);
    await form.getByLabel("Venture").selectOption("gaas");
    await form.getByLabel(/^NDA/).fill("**Confidential.** What you read here stays between us.");
    await submit(admin.page, "Open room");
    const roomAdmin = new URL(admin.page.url()).pathname;
    const id = roomAdmin.split("/").pop()!;
    const option = admin.page.locator('select[name="document"] option').filter({ hasText: DECK });
    await admin.page.locator('select[name="document"]').selectOption((await option.getAttribute("value"))!);
    await submit(admin.page, "Add document");
    for (const reader of READERS) {
      const invite = admin.page
        .locator("form")
        .filter({ has: admin.page.getByRole("button", { name: "Invite investor" }) });
      await invite.getByLabel("E-mail address").fill(reader.email);
      await invite.getByLabel("Name").fill(reader.name);
      await submit(admin.page, "Invite investor");
    }

    // The two read side by side, each in their own browser context.
    const investors = await Promise.all(READERS.map(() => newPage(browser)));
    await Promise.all(
      READERS.map(async (reader, i) => {
        const { page } = investors[i]!;
        page.setDefaultTimeout(20_000);
        await enter(page, id, reader);
        await read(page);
      }),
    );

    // The owner's reports: seconds on pages 1 and 2 for the one who agreed, none for the other.
    // The reports are read with JavaScript, as axe needs it (the set-up above had none).
    const owner = await newPage(browser);
    owner.page.setDefaultTimeout(15_000);
    await signIn(owner.page, "admin@example.com", roomAdmin);
    const report = async (name: string) => {
      await owner.page.goto(roomAdmin);
      const href = await owner.page.getByRole("link", { name: `Reading report: ${name}` }).getAttribute("href");
      await owner.page.goto(href!);
      await hydrated(owner.page);
    };
    // Each row: its header "Page N", its cell the seconds.
    const times = async () =>
      Object.fromEntries(
        await owner.page
          .getByTestId("page-time")
          .evaluateAll((rows) =>
            rows.map((row) => [
              row.querySelector("th")!.textContent!.replace("Page ", ""),
              Number.parseFloat(row.querySelector("td")!.textContent!),
            ]),
          ),
      ) as Record<string, number>;
    await report(READERS[0].name);
    await expect
      .poll(async () => (await owner.page.reload(), Object.keys(await times()).length))
      .toBeGreaterThanOrEqual(2);
    const first = await times();
    expect(first["1"]).toBeGreaterThanOrEqual(8);
    expect(first["2"]).toBeGreaterThanOrEqual(2);
    await noViolations(owner.page, "report-consented");
    await report(READERS[1].name);
    expect(await owner.page.getByTestId("page-time").count()).toBe(0);
    expect(await owner.page.getByText("No page times recorded.").count()).toBeGreaterThan(0);
    expect(await owner.page.getByText(/^Opened /).count()).toBeGreaterThan(0);

    // The room's chart: an SVG of the deck's pages, and a table with one row per page.
    await owner.page.goto(roomAdmin);
    const chart = owner.page.getByTestId("reading-chart").filter({ hasText: DECK });
    expect(await chart.locator("svg[role=img]").count()).toBe(1);
    expect(await chart.locator("tbody tr").count()).toBe(3);
    await noViolations(owner.page, "room-admin-chart");

    // The first investor's own record lists pages 1 and 2; erasing empties the owner's page times,
    // and the room still shows that they opened it.
    const { page } = investors[0]!;
    await page.goto(`/rooms/${id}/record`);
    const rows = await page.getByTestId("record-page-times").locator("tbody tr").allTextContents();
    expect(rows.some((r) => r.includes("Page 1"))).toBe(true);
    expect(rows.some((r) => r.includes("Page 2"))).toBe(true);
    await noViolations(page, "record");
    await submit(page, "Erase my reading record");
    await page.getByText("No page times are recorded.").waitFor();
    await report(READERS[0].name);
    expect(await owner.page.getByTestId("page-time").count()).toBe(0);
    await owner.page.goto(roomAdmin);
    const status = owner.page.getByTestId("investor-status");
    expect(await status.filter({ hasText: /^Opened/ }).count()).toBe(2);

    expect(investors.flatMap((i) => i.consoleErrors).concat(admin.consoleErrors, owner.consoleErrors)).toEqual([]);
    await Promise.all([...investors, admin, owner].map((i) => i.context.close()));
  }, 150_000);
});
