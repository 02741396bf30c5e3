import { z } from "zod";
import { requiredText } from "~/features/forms/text-field";
import { emailSchema } from "~/utils/email-schema";
import { EMAIL_MAX_LENGTH } from "~/utils/mail-address";

/** The Help page's contact form (the product sets no rules; these keep the data sane). */
export const CONTACT_LIMITS = { name: 100, email: EMAIL_MAX_LENGTH, subject: 150, message: 5000 } as const;

export const contactSchema = z.object({
  name: requiredText("name", CONTACT_LIMITS.name, "Please enter your name."),
  email: emailSchema("Please enter a valid email address."),
  subject: requiredText("subject", CONTACT_LIMITS.subject),
  message: requiredText("message", CONTACT_LIMITS.message),
});
