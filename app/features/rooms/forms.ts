/** The investor rooms' form fields and rules (docs/rooms.md), for the pages and their actions. */
import { z } from "zod";
import { VENTURE_ID } from "~/features/ventures/venture-field";
import { emailSchema } from "~/utils/email-schema";
import { formatInteger } from "~/utils/format";

export const ROOM_LIMITS = { title: 200, nda: 20_000, name: 120, firm: 120 } as const;

const DAY_MS = 86_400_000;

/** Today as YYYY-MM-DD (UTC), the earliest expiry a room may be given. */
export const todayUtc = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/** The instant a room with this expiry date stops answering: the end of that day, UTC. */
export const expiryInstant = (date: string) => Date.parse(`${date}T00:00:00Z`) + DAY_MS;

/** The room form: a new room on /admin/rooms, its settings on /admin/rooms/<id>. */
export function roomSchema(now = Date.now()) {
  return z.object({
    title: z
      .string({ required_error: "Please enter a title." })
      .trim()
      .min(1, "Please enter a title.")
      .max(ROOM_LIMITS.title, `Please keep the title to ${formatInteger(ROOM_LIMITS.title)} characters.`),
    /** Empty: the group's room; the action checks it against the catalogue (withKnownVenture). */
    venture: z
      .string()
      .regex(VENTURE_ID, "Choose one of the ventures, or the group.")
      .optional()
      .transform((v) => v ?? null),
    nda: z
      .string()
      .trim()
      .max(ROOM_LIMITS.nda, `Please keep the NDA to ${formatInteger(ROOM_LIMITS.nda)} characters.`)
      .optional()
      .transform((v) => v ?? ""),
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
  name: z
    .string({ required_error: "Please enter the investor's name." })
    .trim()
    .min(1, "Please enter the investor's name.")
    .max(ROOM_LIMITS.name, `Please keep the name to ${formatInteger(ROOM_LIMITS.name)} characters.`),
  firm: z
    .string()
    .trim()
    .max(ROOM_LIMITS.firm, `Please keep the firm to ${formatInteger(ROOM_LIMITS.firm)} characters.`)
    .optional()
    .transform((v) => v ?? ""),
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
  name: z
    .string({ required_error: "Please type your full name." })
    .trim()
    .min(1, "Please type your full name.")
    .max(ROOM_LIMITS.name, `Please keep the name to ${formatInteger(ROOM_LIMITS.name)} characters.`),
});
