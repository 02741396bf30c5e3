/** The investor rooms' form fields and rules (docs/rooms.md), for the pages and their actions. */
import { z } from "zod";
import { optionalText, requiredText } from "~/features/forms/text-field";
import { UNKNOWN_VENTURE, VENTURE_ID } from "~/features/ventures/venture-field";
import { emailSchema } from "~/utils/email-schema";

export const ROOM_LIMITS = { title: 200, nda: 20_000, name: 120, firm: 120 } as const;

const DAY_MS = 86_400_000;

/** Today as YYYY-MM-DD (UTC), the earliest expiry a room may be given. */
export const todayUtc = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/** The instant a room with this expiry date stops answering: the end of that day, UTC. */
export const expiryInstant = (date: string) => Date.parse(`${date}T00:00:00Z`) + DAY_MS;

/** The room form: a new room on /admin/rooms, its settings on /admin/rooms/<id>. */
export function roomSchema(now = Date.now()) {
  return z.object({
    title: requiredText("title", ROOM_LIMITS.title),
    /** Empty: the group's room; the action checks it against the catalogue (withKnownVenture). */
    venture: z
      .string()
      .regex(VENTURE_ID, UNKNOWN_VENTURE)
      .optional()
      .transform((v) => v ?? null),
    nda: optionalText("NDA", ROOM_LIMITS.nda),
    downloads: z.boolean().default(false),
    watermark: z.boolean().default(false),
    expires: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Please enter the expiry as a date (YYYY-MM-DD).")
      .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Please enter a real date.")
      .refine((v) => v >= todayUtc(now), "The expiry cannot be in the past.")
      .optional()
      .transform((v) => v ?? null),
  });
}

export type RoomInput = z.output<ReturnType<typeof roomSchema>>;

export const documentSchema = z.object({
  document: z.string({ required_error: "Please choose a document." }).min(1, "Please choose a document."),
});

export const inviteSchema = z.object({
  email: emailSchema(),
  name: requiredText("name", ROOM_LIMITS.name, "Please enter the investor's name."),
  firm: optionalText("firm", ROOM_LIMITS.firm),
});

/** The investor's address on their invitation link. */
export const addressSchema = z.object({ email: emailSchema() });

export const CODE_DIGITS = 6;
export const codeSchema = z.object({
  code: z
    .string({ required_error: "Please enter the 6-digit code from the e-mail." })
    .trim()
    .regex(/^\d{6}$/, "The code is 6 digits, as in the e-mail."),
});

/** The NDA form: the box ticked and the investor's name typed. */
export const ndaSchema = z.object({
  accept: z
    .boolean({ required_error: "Please tick the box to accept the NDA." })
    .refine((v) => v, "Please tick the box to accept the NDA."),
  name: requiredText("name", ROOM_LIMITS.name, "Please type your full name."),
});
