/**
 * The site's own addresses (docs/decisions/015-mail-delivery.md): CONTACT_EMAIL, INVESTOR_EMAIL and
 * the sender of MAIL_FROM. Mail to them is operational (the contact notifications): no suppression,
 * unsubscribe or complaint switches it off (features/mail/outbox.server.ts, events.server.ts), so nobody outside can silence the inbox by signing its
 * address up and clicking "Unsubscribe". A signup of one of them is ignored like a suppressed
 * address's (features/leads/signup.server.ts). Compared folded, so `hello+x@` is `hello@`.
 */
import { foldEmail } from "~/features/privacy/address-key.server";
import { getConfig } from "~/utils/config.server";

/** Whether `email` (any spelling of its mailbox) is one of the site's own addresses. */
export function isSiteAddress(env: Env, email: string): boolean {
  const { contact, mail } = getConfig(env);
  const folded = foldEmail(email);
  return [contact.email, contact.investorEmail, mail.from.email].some((own) => foldEmail(own) === folded);
}
