import type { Page } from "playwright-core";
import { expect, inject } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT, CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { waitForMail } from "../fixtures/inbox";
import { ready } from "./browser";

/** Signs in at the local provider's page (any e-mail; admin@example.com is the local admin) and lands on `returnTo`. */
export async function signIn(page: Page, email: string, returnTo: string) {
  await page.goto(`/api/login?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("E-mail").fill(email);
  await Promise.all([
    page.waitForURL((url) => url.pathname === returnTo),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  await ready(page);
}

/** Presses the confirmation button of the e-mail `email` received (a POST to its link); `topic` names the mail's. */
export async function confirmFromInbox(page: Page, email: string, topic: "newsletter" | "alerts" = "newsletter") {
  const subject = topic === "alerts" ? ALERTS_CONFIRMATION_SUBJECT : CONFIRMATION_SUBJECT;
  const mail = await waitForMail(inject("inboxURL"), { to: email, subject });
  const confirmUrl = mail.text.match(/https?:\/\/\S+\/newsletter\/confirm\/[A-Za-z0-9_-]+/)![0];
  expect((await page.request.post(confirmUrl, { form: {}, maxRedirects: 0 })).status()).toBe(303);
}

/** A confirmed newsletter lead: signed up through the API, confirmed with its e-mail's button (a POST). */
export async function confirmedLead(
  page: Page,
  lead: { email: string; firstName: string; lastName?: string; source?: string },
) {
  expect((await page.request.post("/api/leads", { data: { source: "blog", ...lead } })).status()).toBe(201);
  await confirmFromInbox(page, lead.email);
}
