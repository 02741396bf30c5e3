// Operational mail cannot be switched off from outside (docs/decisions/015-mail-delivery.md):
// suppression applies to newsletter mail, never to the contact notifications or any mail to the
// site's own addresses, and a signup of those addresses is ignored. Before issue 43 anyone could
// sign up CONTACT_EMAIL; one click on that e-mail's "Unsubscribe" silenced every notification.
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { queueConfirmation } from "~/features/leads/subscription.server";
import { notificationSubject } from "~/features/contact/notification-mail.server";
import { deliverDueMail } from "~/features/mail/outbox.server";
import { isSuppressed } from "~/features/privacy/suppression.server";
import { waitForMail } from "../fixtures/inbox";
import { insertLeads, nextAddress, ORIGIN, postJson, signup } from "./leads-helpers";

const inbox = inject("inboxURL");
const CONTACT = env.CONTACT_EMAIL; // hello@example.com in wrangler.toml

const clear = () =>
  env.DB.batch(
    [
      "rate_limits",
      "mail_outbox",
      "newsletter_tokens",
      "confirmation_counts",
      "contact_messages",
      "leads",
      "suppressed_emails",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
beforeEach(clear);
afterEach(clear);

const count = async (table: string) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe("the contact inbox cannot be silenced", () => {
  it("the contact address's notification still arrives after its mail's one-click unsubscribe", async () => {
    // The contact address on the list as before the fix, and the confirmation e-mail it got.
    await insertLeads([{ email: CONTACT, status: "pending" }]);
    const lead = (await env.DB.prepare("SELECT id FROM leads WHERE email = ?").bind(CONTACT).first<{ id: number }>())!;
    expect(await queueConfirmation(env, { id: lead.id, email: CONTACT })).not.toBeNull();
    await deliverDueMail(env);
    const confirmation = await waitForMail(inbox, { to: CONTACT, subject: CONFIRMATION_SUBJECT });
    const unsubscribe = confirmation.headers["list-unsubscribe"]?.match(/<(https:[^>]+)>/)?.[1];
    expect(unsubscribe).toBeDefined();

    // A staff member (or the mail client's button) unsubscribes: "this wasn't me" suppresses it.
    const res = await SELF.fetch(unsubscribe!, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await isSuppressed(env, CONTACT)).toBe(true);

    // A Help message still reaches the contact inbox.
    const subject = `Still heard ${crypto.randomUUID().slice(0, 8)}`;
    const help = await SELF.fetch(`${ORIGIN}/help`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": nextAddress() },
      body: new URLSearchParams({ name: "Grace", email: "grace-op@example.com", subject, message: "Hello" }).toString(),
    });
    expect(help.status).toBe(200);
    await waitForMail(inbox, { to: CONTACT, subject: notificationSubject(subject) });
    const rows = await env.DB.prepare("SELECT status FROM mail_outbox WHERE kind = 'contact-notification'").all();
    expect(rows.results).toEqual([{ status: "sent" }]);
  });

  it("a signup of the site's own addresses, any spelling, is answered as usual and stores or mails nothing", async () => {
    const own = [CONTACT, CONTACT.replace("@", "+news@").toUpperCase(), env.INVESTOR_EMAIL, "newsletter@example.com"];
    for (const email of own) {
      const res = await postJson(signup({ email }));
      expect(res.status, email).toBe(201);
      expect(await res.json()).toMatchObject({ email: email.toLowerCase() });
    }
    expect(await count("leads")).toBe(0);
    expect(await count("mail_outbox")).toBe(0);
    expect(await count("newsletter_tokens")).toBe(0);
  });
});
