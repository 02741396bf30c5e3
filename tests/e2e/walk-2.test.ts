import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { axeViolations, WCAG_AA } from "./axe";
import { launch, newPage } from "./browser";
import { describeWalk } from "./content-quality";

describeWalk(1, "light");

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it("the scan finds what it looks for: a missing alt, an unnamed button, low contrast", async () => {
  const { page, context } = await newPage(browser);
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main>
    <h1>Scan</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <button></button><p style="color:#bbb;background:#fff">faint text</p></main></body></html>`);
  const found = await axeViolations(page, WCAG_AA);
  expect(found.map((line) => line.split(":")[0]).sort()).toEqual(["button-name", "color-contrast", "image-alt"]);
  // Injected once per document: a second scan reuses it and finds the same.
  expect(await axeViolations(page, WCAG_AA)).toEqual(found);
  await context.close();
});
