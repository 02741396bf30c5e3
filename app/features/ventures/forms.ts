/**
 * The venture admin's forms (docs/ventures.md): the fields and rules, shared by the page (conform
 * in the browser) and its action. Browser-safe: no server code.
 */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { HOST, STAGES, VIDEO_ID } from "~/content/ventures";
import { VENTURE_STAGES } from "~/db/enums";
import { requiredText } from "~/features/forms/text-field";
import { VENTURE_ID } from "./venture-field";

export const ADMIN_VENTURES_PATH = "/admin/ventures";
export const adminVenturePath = (id: string) => `${ADMIN_VENTURES_PATH}/${id}`;
/** A venture's row on the list (the list's actions come back to it). */
export const ventureAnchor = (id: string) => `venture-${id}`;
/** The anchor of a venture page's "Announce this change" step, where a save that changed the stage lands. */
export const ANNOUNCE_ANCHOR = "announce";

export const VENTURE_LIMITS = { name: 60, tagline: 120, description: 600, label: 60, value: 60 } as const;

/** An https:// URL whose host is a public DNS name (no IP, no localhost, no port, no credentials). */
export function isPublicHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.port && !url.username && !url.password && HOST.test(url.hostname);
  } catch {
    return false;
  }
}

/** A YouTube video's id from the id itself or a youtube.com / youtu.be URL; null otherwise. */
export function youtubeId(value: string): string | null {
  const v = value.trim();
  if (VIDEO_ID.test(v)) return v;
  try {
    const url = new URL(v);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    const host = url.hostname.replace(/^(www\.|m\.)/, "");
    let id: string | null = null;
    if (host === "youtu.be") id = url.pathname.slice(1);
    else if (host === "youtube.com" || host === "youtube-nocookie.com")
      id = url.searchParams.get("v") ?? url.pathname.match(/^\/(?:embed|shorts|live)\/([^/]+)/)?.[1] ?? null;
    return id && VIDEO_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

export const STAGE_NAMES = VENTURE_STAGES.map((value) => ({ value, label: STAGES[value] }));

export const ventureSchema = z.object({
  name: requiredText("name", VENTURE_LIMITS.name),
  tagline: requiredText("tagline", VENTURE_LIMITS.tagline),
  description: requiredText("description", VENTURE_LIMITS.description),
  stage: z.enum(VENTURE_STAGES, { message: "Please choose one of the stages." }),
  website: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || isPublicHttpsUrl(v), "Enter an https:// address with a public host name, or leave it empty.")
    .transform((v) => v || null),
  video: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || youtubeId(v), "Enter a YouTube address or an 11-character video id, or leave it empty.")
    .transform((v) => (v ? youtubeId(v) : null)),
});

export type VentureInput = z.infer<typeof ventureSchema>;

export const factSchema = z.object({
  label: requiredText("label", VENTURE_LIMITS.label),
  value: requiredText("value", VENTURE_LIMITS.value),
  asOf: z
    .string({ required_error: "Please enter the date the figure is as of." })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Please enter the date the figure is as of.")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Please enter a real date."),
  source: z
    .string({ required_error: "Please enter the figure's source." })
    .trim()
    .refine(
      (v) => v.startsWith("/documents/") || /^https?:\/\//i.test(v),
      "Enter a document's address from our library (/documents/…, or its full address) or an https:// address.",
    ),
});

export type FactInput = z.infer<typeof factSchema>;

/** A new venture: its id (the address /subsidiary/<id>, fixed once made) and name. */
export const newVentureSchema = z.object({
  id: requiredText("id", 40).regex(
    VENTURE_ID,
    "Use lower-case letters, digits and single hyphens (it is the address).",
  ),
  name: requiredText("name", VENTURE_LIMITS.name),
});

/** An action's answer to a refused form: which form, and conform's result (fields kept, errors). */
export interface FormReply {
  form: string;
  result: SubmissionResult<string[]>;
}

/** What a refused logo's error says. */
export const LOGO_TYPES_MESSAGE = "The logo must be a PNG, JPEG or WebP image (SVG and other files are refused).";
export const logoTooLargeMessage = (maxBytes: number) =>
  `The logo is over ${Math.round(maxBytes / 1024)} KiB: please upload a smaller PNG, JPEG or WebP image.`;
