import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { helpCopy } from "~/content/copy";
import { notificationSubject } from "~/features/contact/notification-mail.server";
import { waitForMail } from "../fixtures/inbox";
import { signIn } from "./account";
import { hydrated, launch, newPage, screenshot } from "./browser";

// The contact inbox in Chromium, with JavaScript on and off: a visitor sends a message from /help,
// the contact address is notified, the admin finds it with the search and marks it answered.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("admin messages", () => {
  it.each([true, false])(
    "JavaScript %s: send from /help, find it with the search, mark it answered",
    async (javaScriptEnabled) => {
      const tag = `${javaScriptEnabled ? "js" : "nojs"}-${Date.now().toString(36)}`;
      const sender = {
        name: `Eve ${tag}`,
        email: `eve-${tag}@example.com`,
        subject: `Inbox e2e ${tag}`,
        message: "Could you tell me more about GaaS?",
      };
      // An admin in Tokyo: with JavaScript the times are theirs (UTC in the tooltip), without it UTC.
      const { page, context, consoleErrors } = await newPage(browser, { javaScriptEnabled, timezoneId: "Asia/Tokyo" });

      await page.goto("/help");
      if (javaScriptEnabled) await hydrated(page);
      const form = page.locator("#contact form");
      await form.getByLabel("Name").fill(sender.name);
      await form.getByLabel("Email").fill(sender.email);
      await form.getByLabel("Subject").fill(sender.subject);
      await form.getByLabel("Message").fill(sender.message);
      await form.getByRole("button", { name: "Send Message" }).click();
      await page.getByRole("status").filter({ hasText: helpCopy.success }).waitFor();

      const mail = await waitForMail(inject("inboxURL"), {
        to: "hello@example.com",
        subject: notificationSubject(sender.subject),
      });
      expect(mail.headers["reply-to"]).toBe(sender.email);

      await signIn(page, "admin@example.com", "/admin/messages");
      await page.getByRole("heading", { name: "Messages", level: 1 }).waitFor();
      if (javaScriptEnabled) await hydrated(page);
      // A prefix of the address in capitals: the search ignores case.
      const search = page.getByRole("search", { name: "Search messages" });
      await search.getByLabel("Search", { exact: true }).fill(`EVE-${tag.toUpperCase()}`);
      await search.getByRole("button", { name: "Search" }).click();
      await page.waitForURL((url) => url.searchParams.get("q") !== null);
      const item = page.getByTestId("message").filter({ hasText: sender.subject });
      await item.waitFor();
      // The URL changes before the client router renders the filtered list (a transition): the
      // message is in the list either way, so wait for the list to be the search's.
      await expect.poll(() => page.getByTestId("message").count()).toBe(1);
      expect(await item.getByRole("link", { name: "Reply" }).getAttribute("href")).toBe(
        `mailto:${sender.email}?subject=${encodeURIComponent(`Re: ${sender.subject}`)}`,
      );
      const sent = item.locator("time").first();
      await expect.poll(() => sent.innerText()).toMatch(javaScriptEnabled ? / GMT\+9$/ : / UTC$/);
      await expect(sent.getAttribute("title")).resolves.toMatch(/ UTC$/);
      await screenshot(page, `admin-messages-${javaScriptEnabled ? "js" : "nojs"}`);

      await item.getByRole("button", { name: "Mark answered" }).click();
      await page
        .getByTestId("message")
        .filter({ hasText: sender.subject })
        .and(page.locator('[data-status="answered"]'))
        .waitFor();
      await item.getByText("Answered by admin@example.com").waitFor();
      // The search survived the round trip.
      expect(new URL(page.url()).searchParams.get("q")).not.toBeNull();
      await screenshot(page, `admin-messages-answered-${javaScriptEnabled ? "js" : "nojs"}`);
      expect(consoleErrors).toEqual([]);
      await context.close();
    },
  );
});
