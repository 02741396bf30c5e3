import { z } from "zod";
import { emailSchema } from "~/utils/email-schema";
import { EMAIL_MAX_LENGTH } from "~/utils/mail-address";

/** The Help page's contact form (the product sets no rules; these keep the data sane). */
export const CONTACT_LIMITS = { name: 100, email: EMAIL_MAX_LENGTH, subject: 150, message: 5000 } as const;

export const contactSchema = z.object({
  name: z
    .string({ required_error: "Please enter your name." })
    .trim()
    .min(1, "Please enter your name.")
    .max(CONTACT_LIMITS.name, `Please keep your name under ${CONTACT_LIMITS.name} characters.`),
  email: emailSchema("Please enter a valid email address."),
  subject: z
    .string({ required_error: "Please enter a subject." })
    .trim()
    .min(1, "Please enter a subject.")
    .max(CONTACT_LIMITS.subject, `Please keep the subject under ${CONTACT_LIMITS.subject} characters.`),
  message: z
    .string({ required_error: "Please enter a message." })
    .trim()
    .min(1, "Please enter a message.")
    .max(CONTACT_LIMITS.message, `Please keep your message under ${CONTACT_LIMITS.message} characters.`),
});
