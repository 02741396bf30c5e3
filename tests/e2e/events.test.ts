// The calendar in the browser (docs/decisions/095–097): an admin with JavaScript off creates a
// published GaaS event in Europe/Berlin, is refused an end before its start with the fields kept,
// moves it and cancels it; a visitor finds it on /events, its page and the GaaS page, and its
// calendar file; with JavaScript the page adds the visitor's own clock.
import ICAL from "ical.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./account";
import { axeViolations, WCAG_AA } from "./axe";
import { hydrated, launch, newPage, ready, settled } from "./browser";
import { EVENT_FIXTURE } from "./content-fixtures";
import { inView, smallTargets } from "./tap-targets";
import { PHONE } from "./fit";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const DAY = 86_400_000;
const date = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

describe("events without JavaScript, on a 412 px phone", () => {
  it("an admin creates, is refused, moves, cancels (asked first) and reinstates a GaaS event; a visitor sees it and its calendar file", async () => {
    const { page, context } = await newPage(browser, {
      javaScriptEnabled: false,
      timezoneId: "America/New_York",
      viewport: PHONE,
    });
    await signIn(page, "admin@example.com", "/admin/events");
    const title = `GaaS demo day ${Date.now().toString(36)}`;
    const fill = async (start: string, end: string) => {
      await page.getByLabel("Title", { exact: true }).fill(title);
      await page.getByLabel("Description (Markdown)").fill("The **demo**, then questions.");
      await page.getByLabel("Start", { exact: true }).fill(start);
      await page.getByLabel("End", { exact: true }).fill(end);
      await page.getByLabel(/^Time zone/).selectOption("Europe/Berlin");
      await page.getByLabel("Location", { exact: true }).fill("Berlin");
      await page.getByLabel(/^Link/).fill("https://example.com/webcast");
      await page.getByLabel("Venture", { exact: true }).selectOption("gaas");
      await page.getByLabel("Publish", { exact: true }).check();
    };
    // An end before its start: refused, the fields kept, nothing stored.
    await fill(`${date(20)}T16:00`, `${date(20)}T15:00`);
    await page.getByRole("button", { name: "Create event" }).click();
    await ready(page);
    await page.getByText("The end must be after the start.").first().waitFor();
    // The answer lands in view where the button was pressed: the form's answer box, naming the field.
    await expect(inView(page, "#event-form-answer")).resolves.toBe(true);
    expect(await page.locator("#event-form-answer").textContent()).toContain("End: The end must be after the start.");
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(title);
    expect(await page.getByLabel("End", { exact: true }).inputValue()).toBe(`${date(20)}T15:00`);
    expect(await page.getByLabel("Location", { exact: true }).inputValue()).toBe("Berlin");
    expect(await page.getByRole("link", { name: title }).count()).toBe(0);

    await page.getByLabel("End", { exact: true }).fill(`${date(20)}T18:00`);
    await Promise.all([
      // The post's fragment is kept (form-answer.tsx): the page lands on the form's answer.
      page.waitForURL((url) => /^\/admin\/events\/\d+$/.test(url.pathname)),
      page.getByRole("button", { name: "Create event" }).click(),
    ]);
    await ready(page);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    const slug = new URL(
      await page.getByRole("link", { name: "View the public page" }).evaluate((a) => (a as HTMLAnchorElement).href),
    ).pathname.split("/")[2]!;

    // A visitor: the list, the page (the organiser's time and offset), the venture page, the file.
    const visitor = await newPage(browser, { javaScriptEnabled: false });
    await visitor.page.goto("/events");
    await visitor.page.getByRole("link", { name: title }).waitFor();
    await visitor.page.getByRole("link", { name: title }).click();
    await visitor.page.waitForURL(`**/events/${slug}`);
    await visitor.page.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await visitor.page.getByTestId("event-when").textContent()).toMatch(
      /16:00 to 18:00 \(Europe\/Berlin, UTC\+0[12]:00\)/,
    );
    const ics = await visitor.page.getByRole("link", { name: "Add to calendar" }).getAttribute("href");
    expect(ics).toBe(`/events/${slug}.ics`);
    const file = await visitor.page.request.get(ics!);
    expect(file.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(await file.text())).getFirstSubcomponent("vevent")!);
    const uid = event.uid;
    await visitor.page.goto("/subsidiary/gaas");
    await visitor.page.getByRole("link", { name: title }).waitFor();

    // Moving it raises the sequence and keeps the UID; cancelling keeps it, marked.
    await page.getByLabel("Start", { exact: true }).fill(`${date(21)}T16:00`);
    await page.getByLabel("End", { exact: true }).fill(`${date(21)}T18:00`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await ready(page);
    // An edit's answer says "Saved", in view (no field names such as a sequence).
    await expect(page.getByTestId("flash-status").textContent()).resolves.toBe("Saved");
    await expect(inView(page, "[data-testid='flash-status']")).resolves.toBe(true);
    expect(await page.getByTestId("event-state").textContent()).not.toMatch(/sequence/i);
    // Cancel asks first, saying what subscribed calendars do; asking changes nothing.
    await page.getByRole("link", { name: "Cancel event…" }).click();
    await ready(page);
    const step = page.getByTestId("confirm-step");
    expect(await step.textContent()).toContain("every calendar that subscribed shows it as cancelled");
    await expect(inView(page, "[data-testid='confirm-step']")).resolves.toBe(true);
    await step.getByRole("button", { name: "Cancel event" }).click();
    await ready(page);
    await page.getByTestId("event-state").getByText("Cancelled").waitFor();
    const feed = await visitor.page.request.get("/events.ics?venture=gaas");
    const mine = new ICAL.Component(ICAL.parse(await feed.text()))
      .getAllSubcomponents("vevent")
      .find((c) => c.getFirstPropertyValue("uid") === uid)!;
    expect(mine.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(mine.getFirstPropertyValue("sequence")).toBe(2);
    // Its page says Cancelled, with no way to add it or join the webcast.
    await visitor.page.goto(`/events/${slug}`);
    await visitor.page.getByTestId("event-cancelled").getByText("Cancelled").waitFor();
    expect(await visitor.page.getByRole("link", { name: "Add to calendar" }).count()).toBe(0);
    expect(await visitor.page.getByRole("link", { name: "https://example.com/webcast" }).count()).toBe(0);

    // Reinstate undoes it: CONFIRMED again, with a higher SEQUENCE.
    await page.getByRole("button", { name: "Reinstate" }).click();
    await ready(page);
    await expect(page.getByTestId("flash-status").textContent()).resolves.toContain("Event reinstated");
    const again = new ICAL.Component(
      ICAL.parse(await (await visitor.page.request.get("/events.ics?venture=gaas")).text()),
    )
      .getAllSubcomponents("vevent")
      .find((c) => c.getFirstPropertyValue("uid") === uid)!;
    expect([again.getFirstPropertyValue("status"), again.getFirstPropertyValue("sequence")]).toEqual(["CONFIRMED", 3]);

    // Deleting asks first (a page of its own), then the event leaves the feed.
    await page.getByRole("link", { name: "Delete…" }).click();
    await ready(page);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/admin/events"),
      page.getByRole("button", { name: "Delete event" }).click(),
    ]);
    expect(await (await visitor.page.request.get("/events.ics")).text()).not.toContain(uid);
    await visitor.context.close();
    await context.close();
  }, 90_000);
});

describe("events with JavaScript", () => {
  it("the event's page shows the visitor's own clock beside the organiser's", async () => {
    const { page, context } = await newPage(browser, { timezoneId: "America/New_York" });
    await page.goto("/events");
    await hydrated(page);
    await Promise.all([
      page.waitForURL(/\/events\/[^/]+$/),
      page.getByTestId("event-list").first().getByRole("link").first().click(),
    ]);
    await page.getByTestId("event-when").getByTestId("event-local-time").waitFor();
    expect(await page.getByTestId("event-when").getByTestId("event-local-time").textContent()).toMatch(
      /your time: .+\d{2}:\d{2}/,
    );
    await context.close();
  });

  it("at 1366 px, Cancel asks and Reinstate restores; on a 412 px phone /events has no tap target under 24 px", async () => {
    const { page, context } = await newPage(browser, { viewport: { width: 1366, height: 800 } });
    await signIn(page, "admin@example.com", "/admin/events");
    const admin = `/admin/events/${EVENT_FIXTURE.id}`;
    await page.goto(admin);
    await hydrated(page);
    await page.getByRole("link", { name: "Cancel event…" }).click();
    const step = page.getByTestId("confirm-step");
    await step.waitFor();
    await expect(inView(page, "[data-testid='confirm-step']")).resolves.toBe(true);
    await step.getByRole("button", { name: "Cancel event" }).click();
    await page.getByRole("button", { name: "Reinstate" }).waitFor();
    await page.getByRole("button", { name: "Reinstate" }).click();
    await page.getByRole("link", { name: "Cancel event…" }).waitFor();
    expect(await page.getByTestId("event-state").textContent()).not.toContain("Cancelled");
    // The phone's calendar page: every link, the cards and the signup at least 24 × 24 px (WCAG 2.5.8).
    for (const javaScriptEnabled of [true, false]) {
      const phone = await newPage(browser, { viewport: PHONE, javaScriptEnabled });
      await phone.page.goto("/events");
      await ready(phone.page);
      await phone.page.getByTestId("calendar-feeds").waitFor();
      expect(await smallTargets(phone.page)).toEqual([]);
      // A card is tapped anywhere, not only on its title.
      const card = phone.page.getByTestId("event-list").locator("article").first();
      const box = (await card.boundingBox())!;
      await Promise.all([
        phone.page.waitForURL(/\/events\/[^/]+$/),
        phone.page.mouse.click(box.x + box.width - 12, box.y + box.height - 12),
      ]);
      expect(await smallTargets(phone.page)).toEqual([]);
      await phone.context.close();
    }
    await context.close();
  }, 60_000);

  it("the admin's event pages have nothing for axe to find, in either theme", async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, "admin@example.com", "/admin/events");
    const admin = `/admin/events/${EVENT_FIXTURE.id}`;
    for (const path of ["/admin/events", admin, `${admin}?confirm=delete`, `${admin}?confirm=cancel`]) {
      await page.goto(path);
      await hydrated(page);
      for (const theme of ["light", "dark"]) {
        await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
        await settled(page);
        expect((await axeViolations(page, WCAG_AA)).map((v) => `${path} ${theme}: ${v}`)).toEqual([]);
      }
    }
    await context.close();
  });
});
