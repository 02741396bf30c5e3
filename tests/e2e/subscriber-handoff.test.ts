import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { signupAnchor } from "~/features/leads/newsletter";
import { waitForMail } from "../fixtures/inbox";
import { confirmedLead, signIn } from "./account";
import { axeViolations, WCAG_AA } from "./axe";
import { downloadBytes, hydrated, launch, newPage, screenshot, settled } from "./browser";
import { inView } from "./tap-targets";

// The newsletter host's hand-off and the investors' alert preferences in Chromium (issue 52):
// the admin's export and import with and without JavaScript, and the preferences page the alerts'
// confirmation mail links, each page scanned by axe in both themes with its data present.

const inbox = inject("inboxURL");
const PATH = "/admin/subscribers/handoff";
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The import's answer box (its preview, its End's result) in view where its button was pressed. */
const answerInView = (page: Page) => expect.poll(() => inView(page, "#import-file-answer")).toBe(true);

let n = 0;
const uniqueEmail = (tag: string) => `handoff-${tag}-${Date.now().toString(36)}-${n++}@example.com`;

/** axe in both themes, in a JavaScript context (the scan runs in the page), at `path` as `open` leaves it. */
async function scan(name: string, path: string, open: (page: Page) => Promise<void> = async () => {}) {
  for (const theme of ["light", "dark"] as const) {
    // The light scan on a 412 px phone, which the page must fit without scrolling sideways.
    const { page, context } = await newPage(
      browser,
      theme === "light" ? { viewport: { width: 412, height: 915 } } : {},
    );
    await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
    await open(page);
    await page.goto(path);
    await hydrated(page);
    await settled(page);
    if (theme === "light")
      await expect(
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).resolves.toBe(0);
    const found = await axeViolations(page, WCAG_AA);
    if (found.length) await screenshot(page, `axe-${theme}-${name}`);
    expect(found, `${theme}: ${found.join("; ")}`).toEqual([]);
    await context.close();
  }
}

describe("the hand-off page", () => {
  it("without JavaScript at 1366 × 800: the export downloads the host's CSV, the hand-off is listed, the import says what it did, in view", async () => {
    const { page, context } = await newPage(browser, {
      javaScriptEnabled: false,
      acceptDownloads: true,
      viewport: { width: 1366, height: 800 },
    });
    const email = uniqueEmail("nojs");
    await confirmedLead(page, { email, firstName: "Nora" });
    await signIn(page, "admin@example.com", PATH);
    await page.getByLabel("Host", { exact: true }).selectOption("ghost");
    await page.getByLabel("Subscribers", { exact: true }).selectOption("all");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^afx-subscribers-ghost-\d{4}-\d{2}-\d{2}-\d+\.csv$/);
    const csv = (await downloadBytes(download)).toString("utf8");
    expect(csv.split("\r\n")[0]).toBe('"email","name","note","subscribed_to_emails","labels","created_at"');
    expect(csv).toContain(`"${email}","Nora"`);

    await page.reload();
    await page.getByTestId("handoff-list").getByText("Ghost, all subscribers").first().waitFor();
    await page.getByLabel("Subscriber export (CSV)").setInputFiles({
      name: "substack.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`email,active_subscription,expiry,email_disabled,created_at\n${email},false,,true,\n`),
    });
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Import" }).click()]);
    // A preview first, naming who would end; nothing has ended yet.
    await expect(page.getByTestId("import-result").innerText()).resolves.toBe(
      "Substack export read: 1 row, 1 matched, 0 not known here. Nothing has changed yet.",
    );
    await expect(page.getByTestId("import-to-end").innerText()).resolves.toBe(email);
    await answerInView(page);
    await screenshot(page, "subscriber-handoff-preview-nojs");
    await Promise.all([
      page.waitForLoadState("load"),
      page.getByRole("button", { name: "End 1 subscription" }).click(),
    ]);
    await expect(page.getByTestId("import-result").innerText()).resolves.toBe(
      "Ended 1 subscription here (Substack export):",
    );
    await expect(page.getByTestId("import-ended").innerText()).resolves.toBe(email);
    await answerInView(page);
    await screenshot(page, "subscriber-handoff-nojs");
    await context.close();
    // With the hand-off listed: no violation in either theme.
    await scan("subscriber-handoff", PATH, (p) => signIn(p, "admin@example.com", "/"));
  });

  it("with JavaScript on a phone: the download updates the counts and list at once; nobody new is said, not downloaded; the import previews before it ends anyone", async () => {
    const { page, context, consoleErrors } = await newPage(browser, {
      acceptDownloads: true,
      viewport: { width: 412, height: 915 },
    });
    const email = uniqueEmail("js");
    await confirmedLead(page, { email, firstName: "Jo" });
    await signIn(page, "admin@example.com", PATH);
    await hydrated(page);
    const listed = await page.getByTestId("handoff-list").locator("li").count();
    const counted = await page.getByTestId("handoff-counts").innerText();
    await page.getByLabel("Subscribers", { exact: true }).selectOption("new");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect((await downloadBytes(download)).toString("utf8")).toContain(email);
    // No reload: the list has the new hand-off and nobody is left "not handed off yet".
    await expect.poll(() => page.getByTestId("handoff-list").locator("li").count()).toBeGreaterThan(listed);
    await expect.poll(() => page.getByTestId("handoff-counts").innerText()).not.toBe(counted);
    // Again: nobody new (unless another file's reader confirmed meanwhile: then once more).
    const said = page.getByTestId("export-result");
    for (let attempt = 0; attempt < 3 && !(await said.isVisible()); attempt++) {
      const before = await page.getByTestId("handoff-list").locator("li").count();
      const downloaded = page.waitForEvent("download").then(() => "download");
      await page.getByRole("button", { name: "Download CSV" }).click();
      const answer = await Promise.race([downloaded, said.waitFor().then(() => "said")]);
      if (answer === "said") await expect(page.getByTestId("handoff-list").locator("li").count()).resolves.toBe(before);
    }
    await expect(said.innerText()).resolves.toContain("Nobody new since the last hand-off");

    await page.getByLabel("Subscriber export (CSV)").setInputFiles({
      name: "substack.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`email,active_subscription,expiry,email_disabled,created_at\n${email},false,,true,\n`),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await expect
      .poll(() =>
        page
          .getByTestId("import-to-end")
          .innerText()
          .catch(() => ""),
      )
      .toBe(email);
    await answerInView(page);
    await page.getByRole("button", { name: "End 1 subscription" }).click();
    await expect
      .poll(() =>
        page
          .getByTestId("import-ended")
          .innerText()
          .catch(() => ""),
      )
      .toBe(email);
    await answerInView(page);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("with JavaScript: a file that is no host's export is refused with the reason, nothing changed", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await signIn(page, "admin@example.com", PATH);
    await hydrated(page);
    await page.getByLabel("Subscriber export (CSV)").setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff]),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("import-result").innerText()).resolves.toContain("not text");
    expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await context.close();
  });
});

describe("the alert preferences page", () => {
  it("opens from the confirmation mail, saves the ticked boxes without JavaScript, and passes axe", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const email = uniqueEmail("alerts");
    await page.goto("/investors");
    const form = page.locator(`#${signupAnchor("alerts-investors")}`);
    await form.getByLabel(/^Email/).fill(email);
    await Promise.all([page.waitForLoadState("load"), form.getByRole("button", { name: "Get alerts" }).click()]);
    const mail = await waitForMail(inbox, { to: email, subject: ALERTS_CONFIRMATION_SUBJECT });
    const link = mail.text.match(/https?:\/\/\S+\/alerts\/preferences\/[A-Za-z0-9_.-]+/)![0];
    await page.goto(link);
    await page.getByRole("heading", { name: "Your investor alerts" }).waitFor();
    // "All ventures" / "Only these", then the boxes.
    await page.getByRole("group", { name: "Ventures" }).getByLabel("Only these").check();
    await page.getByLabel("GaaS", { exact: true }).check();
    await page.getByRole("group", { name: "Kinds" }).getByLabel("Only these").check();
    await page.getByLabel("News", { exact: true }).check();
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Save preferences" }).click()]);
    await page.getByText("Saved.").waitFor();
    await expect(page.getByLabel("GaaS", { exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel("FiscalMe", { exact: true }).isChecked()).resolves.toBe(false);
    await screenshot(page, "alert-preferences-nojs");
    await context.close();
    await scan("alert-preferences", new URL(link).pathname);
  });
});
