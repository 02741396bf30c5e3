/** The event form's fields and rules (docs/decisions/095-events.md), shared by the admin pages and their actions. */
import { z } from "zod";
import { ventureField } from "~/features/ventures/venture-field";
import { DEFAULT_TIME_ZONE, isTimeZone, nextDay, parseLocal, zonedToInstant } from "~/features/events/event-time";
import { optionalText, requiredText, tooLongMessage } from "~/features/forms/text-field";

export const EVENT_LIMITS = { title: 140, description: 20_000, location: 200, url: 2_000 } as const;

/**
 * The years an event may fall in: every date then has four digits (RFC 5545's DATE, the
 * `datetime-local` input) and every instant fits the columns; 9999-12-31's next day would not.
 */
export const EVENT_YEARS = { min: 1900, max: 2999 } as const;
const YEARS_MESSAGE = `Please enter a date between the years ${EVENT_YEARS.min} and ${EVENT_YEARS.max}.`;
const inYears = (p: { year: number }) => p.year >= EVENT_YEARS.min && p.year <= EVENT_YEARS.max;

/** A venture an event can belong to, as the form's select lists it (the catalogue, from the loader). */
export interface VentureOption {
  id: string;
  name: string;
}

export const eventSchema = z
  .object({
    title: requiredText("title", EVENT_LIMITS.title),
    description: optionalText("description", EVENT_LIMITS.description),
    start: z.string({ required_error: "Please enter when it starts." }),
    end: z.string({ required_error: "Please enter when it ends." }),
    timezone: z
      .string({ required_error: "Please choose a time zone." })
      .refine(isTimeZone, "Please choose a time zone from the list (an IANA zone such as Europe/Berlin)."),
    allDay: z.boolean().default(false),
    location: optionalText("location", EVENT_LIMITS.location),
    url: z
      .string()
      .trim()
      .max(EVENT_LIMITS.url, tooLongMessage("link", EVENT_LIMITS.url))
      .refine((v) => URL.canParse(v) && new URL(v).protocol === "https:", "Please enter an https:// link.")
      .optional()
      .transform((v) => v ?? null),
    /** Empty: the group's own event; the action checks it against the catalogue (withKnownVenture). */
    venture: ventureField(),
    publish: z.boolean().default(false),
    alert: z.boolean().default(false),
  })
  .transform((v, ctx) => {
    const start = parseLocal(v.start);
    const end = parseLocal(v.end);
    if (!start) ctx.addIssue({ code: "custom", path: ["start"], message: "Please enter a start date and time." });
    else if (!inYears(start)) ctx.addIssue({ code: "custom", path: ["start"], message: YEARS_MESSAGE });
    if (!end) ctx.addIssue({ code: "custom", path: ["end"], message: "Please enter an end date and time." });
    else if (!inYears(end)) ctx.addIssue({ code: "custom", path: ["end"], message: YEARS_MESSAGE });
    if (!start || !end || !inYears(start) || !inYears(end) || !isTimeZone(v.timezone)) return z.NEVER;
    const times = v.allDay
      ? {
          startsAt: zonedToInstant(start.date, v.timezone)!,
          endsAt: zonedToInstant(nextDay(end.date), v.timezone)!,
          startDate: start.date,
          endDate: end.date,
        }
      : {
          startsAt: zonedToInstant(v.start, v.timezone)!,
          endsAt: zonedToInstant(v.end, v.timezone)!,
          startDate: null,
          endDate: null,
        };
    const endsBefore = v.allDay ? end.date < start.date : times.endsAt <= times.startsAt;
    if (endsBefore) {
      ctx.addIssue({
        code: "custom",
        path: ["end"],
        message: v.allDay ? "The last day cannot be before the first." : "The end must be after the start.",
      });
      return z.NEVER;
    }
    const { start: _s, end: _e, ...rest } = v;
    return { ...rest, ...times };
  });

export type EventInput = z.output<typeof eventSchema>;

export const EVENT_DEFAULT_ZONE = DEFAULT_TIME_ZONE;
