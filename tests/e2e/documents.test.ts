import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./account";
import { downloadBytes, hydrated, launch, newPage as newSharedPage, screenshot } from "./browser";
import { startOwnWorker, type OwnWorker } from "./own-worker";
import { inView } from "./tap-targets";
import { PHONE } from "./fit";

// The document library in Chromium: an admin uploads a PDF with JavaScript off (the plain
// multipart form) and on (progress bar, cancel), and a visitor downloads the same bytes from
// /documents. On a worker of its own: the other files, running beside it, count /documents' cards.
let browser: Browser;
let worker: OwnWorker;
const LIMIT = 2 * 1024 * 1024;
beforeAll(async () => {
  // A 2 MiB limit, so an over-size file is quick to make and to send.
  worker = await startOwnWorker("documents", { DOCUMENT_MAX_BYTES: String(LIMIT) });
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

const DESKTOP = { width: 1366, height: 800 };

const newPage = (b: Browser, options: { javaScriptEnabled?: boolean; viewport?: typeof PHONE | typeof DESKTOP } = {}) =>
  newSharedPage(b, { baseURL: worker.url, ...options });

/** The upload form's answer box says `text`, in view where Upload was pressed. */
async function answeredInView(page: Page, text: string) {
  const box = page.locator("#new-document-answer");
  await expect.poll(() => box.textContent()).toContain(text);
  await expect.poll(() => inView(page, "#new-document-answer")).toBe(true);
}

function pdf(label: string, size: number): Buffer {
  const head = `%PDF-1.7\n% ${label}\n`;
  const tail = "\n%%EOF\n";
  return Buffer.from(`${head}${" ".repeat(Math.max(0, size - head.length - tail.length))}${tail}`);
}

async function fillUpload(page: Page, title: string, file: Buffer) {
  const form = page.locator("form#new-document");
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description (optional)").fill(`Uploaded by the browser test: ${title}.`);
  await form.getByLabel("Category").selectOption("Reports");
  await form.getByLabel("Publish now").check();
  await form.getByLabel(/^PDF file/).setInputFiles({ name: `${title}.pdf`, mimeType: "application/pdf", buffer: file });
  return form;
}

/** A visitor on /documents downloads the document's PDF: the uploaded bytes. */
async function downloadAsVisitor(title: string, expected: Buffer, suffix: string) {
  const { page, context } = await newPage(browser, { javaScriptEnabled: suffix === "js" });
  await page.goto("/documents");
  const card = page.getByTestId("document").filter({ hasText: title });
  await card.waitFor();
  await screenshot(page, `documents-listed-${suffix}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByRole("link", { name: /^Download PDF/ }).click(),
  ]);
  expect((await downloadBytes(download)).equals(expected)).toBe(true);
  await context.close();
}

/** Deletes the document from its admin page, as an admin would: Delete, then the confirmation step's Delete. */
async function deleteOnItsPage(page: Page, title: string) {
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get("confirm") === "delete"),
    page.getByRole("link", { name: "Delete" }).click(),
  ]);
  await page.getByRole("heading", { name: `Delete “${title}” and every version of it?` }).waitFor();
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/admin/documents"),
    page.getByRole("button", { name: "Delete" }).click(),
  ]);
  await page.getByRole("heading", { level: 1, name: "Document Library" }).waitFor();
  expect(await page.getByTestId("document-row").filter({ hasText: title }).count()).toBe(0);
}

describe("the document library", () => {
  it("JavaScript off: the plain multipart form uploads, and a visitor downloads the same bytes", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { javaScriptEnabled: false });
    await signIn(page, "admin@example.com", "/admin/documents");
    const title = `No-JS Report ${Date.now().toString(36)}`;
    const bytes = pdf(title, 40_000);
    const form = await fillUpload(page, title, bytes);
    await screenshot(page, "documents-upload-nojs");
    await Promise.all([
      page.waitForURL((url) => /^\/admin\/documents\/[\w-]{12}$/.test(url.pathname)),
      form.getByRole("button", { name: "Upload" }).click(),
    ]);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await page.getByTestId("status").textContent()).toBe("Published");
    await screenshot(page, "documents-uploaded-nojs");
    await downloadAsVisitor(title, bytes, "nojs");
    // Unpublish asks first, without JavaScript: a link to the question, then the one button.
    await page.getByRole("link", { name: "Unpublish" }).click();
    const step = page.getByTestId("confirm-step");
    await step.getByRole("heading", { name: "Unpublish this document?" }).waitFor();
    expect(await page.getByTestId("status").textContent()).toBe("Published");
    await screenshot(page, "documents-unpublish-confirm-nojs");
    await step.getByRole("button", { name: "Unpublish" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === "Withdrawn");
    await deleteOnItsPage(page, title);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("JavaScript on at 1366 × 800: a progress bar while it uploads, cancel stores nothing, then a complete upload; a refusal answers in view", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    await signIn(page, "admin@example.com", "/admin/documents");
    await hydrated(page);
    // A slow line (256 KiB/s up), so the upload is seen on its way.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    const title = `JS Report ${Date.now().toString(36)}`;
    const bytes = pdf(title, 1024 * 1024);

    // Cancelled halfway: nothing is stored.
    let form = await fillUpload(page, `${title} cancelled`, bytes);
    await form.getByRole("button", { name: "Upload" }).click();
    const progress = page.getByTestId("upload-progress");
    await progress.waitFor();
    await page.waitForFunction(() => Number(document.querySelector("progress")?.value ?? 0) >= 10);
    await screenshot(page, "documents-upload-progress-js");
    await progress.getByRole("button", { name: "Cancel upload" }).click();
    await page.getByRole("status").filter({ hasText: "Upload cancelled. Nothing was stored." }).waitFor();
    await page.reload();
    await hydrated(page);
    expect(
      await page
        .getByTestId("document-row")
        .filter({ hasText: `${title} cancelled` })
        .count(),
    ).toBe(0);

    // Complete: the page moves to the new document's own page.
    form = await fillUpload(page, title, bytes);
    await form.getByRole("button", { name: "Upload" }).click();
    await progress.waitFor();
    await page.waitForURL((url) => /^\/admin\/documents\/[\w-]{12}$/.test(url.pathname), { timeout: 60_000 });
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    // Its toast at once, on the page the upload lands on (not one navigation later).
    await page
      .getByRole("region", { name: "Notifications (F8)" })
      .locator("li")
      .filter({ hasText: "Document published" })
      .waitFor();
    await screenshot(page, "documents-uploaded-js");
    const documentPage = page.url();
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    // A PNG named .pdf is refused by its bytes; the typed title stays.
    await page.goto("/admin/documents");
    await hydrated(page);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]);
    form = await fillUpload(page, `${title} png`, png);
    await form.getByRole("button", { name: "Upload" }).click();
    // In the answer box above the button, in view, and beside the file input.
    await answeredInView(page, "PDF file: This file is not a PDF");
    await form.locator("#new-document-file-error").getByText("This file is not a PDF").waitFor();
    expect(await form.getByLabel("Title").inputValue()).toBe(`${title} png`);
    await screenshot(page, "documents-upload-refused-js");
    // The refusal's 400 is the one error the browser reports.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 400/)]);
    await downloadAsVisitor(title, bytes, "js");
    await page.goto(documentPage);
    await hydrated(page);
    await deleteOnItsPage(page, title);
    await context.close();
  });
});

describe("a file over DOCUMENT_MAX_BYTES", () => {
  it("without JavaScript on a phone, Chromium shows the 413 page's message in view; with it, the browser says so before sending", async () => {
    const big = pdf("too big", LIMIT + 512 * 1024);
    const noJs = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await signIn(noJs.page, "admin@example.com", "/admin/documents");
    const title = `Too big ${Date.now().toString(36)}`;
    const form = await fillUpload(noJs.page, title, big);
    const [answer] = await Promise.all([
      noJs.page.waitForResponse((res) => res.request().method() === "POST"),
      form.getByRole("button", { name: "Upload" }).click(),
    ]);
    expect(answer.status()).toBe(413);
    await noJs.page.getByText("The file is larger than the limit of 2 MiB: nothing was stored.").waitFor();
    // The page lands on the form's answer, above the Upload pressed (not at its top).
    await answeredInView(noJs.page, "The file is larger than the limit of 2 MiB");
    // The typed fields come back with the page.
    expect(await noJs.page.locator("form#new-document").getByLabel("Title").inputValue()).toBe(title);
    await screenshot(noJs.page, "documents-too-large-nojs");
    await noJs.context.close();

    const js = await newPage(browser);
    await signIn(js.page, "admin@example.com", "/admin/documents");
    await hydrated(js.page);
    let posted = 0;
    js.page.on("request", (req) => void (req.method() === "POST" && posted++));
    await (await fillUpload(js.page, title, big)).getByRole("button", { name: "Upload" }).click();
    await js.page.getByTestId("upload-message").filter({ hasText: "over the limit of 2 MiB" }).waitFor();
    expect(posted).toBe(0);
    await js.context.close();
  });
});
