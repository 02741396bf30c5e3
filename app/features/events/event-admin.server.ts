/**
 * The admin's event actions (docs/decisions/095-events.md), for /admin/events and
 * /admin/events/<id>, whose routes first refuse another site's POST and anyone but an admin (so
 * they store nothing): the form validated by one schema through conform (bad input: 400 with the
 * form's errors and the typed values), every write audited in its batch with the content
 * generation's bump (every cached page then renders afresh, docs/decisions/090), then the
 * announcement's fan-out started.
 */
import { parseWithZod } from "@conform-to/zod";
import { json, type AppLoadContext } from "@remix-run/cloudflare";
import { fanOutAlerts } from "~/features/alerts/alerts.server";
import type { Admin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { EVENT_LIMITS, eventSchema } from "~/features/events/event-form";
import { ventureIds } from "~/features/ventures/catalogue.server";
import { withKnownVenture } from "~/features/ventures/venture-field";
import { eventAdminPath } from "~/features/events/event-paths";
import { cancelEvent, deleteEvent, reinstateEvent, saveEvent } from "~/features/events/events.server";
import { pages } from "~/content/pages";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { NO_STORE } from "~/utils/no-store";

/**
 * A form at every limit as the browser sends it: URL-encoded, a character (one UTF-16 unit, as
 * `maxLength` counts) is up to 3 UTF-8 bytes and each byte "%XX", so 9 bytes; then room for the
 * other fields and the parts.
 */
const MAX_BODY = (EVENT_LIMITS.title + EVENT_LIMITS.description + EVENT_LIMITS.location + EVENT_LIMITS.url) * 9 + 8192;

/** An id from the URL, or null. */
export const eventIdOf = (value: string | undefined): number | null =>
  /^[1-9]\d{0,15}$/.test(value ?? "") ? Number(value) : null;

/** What each button's answer says, in a manager's words. */
const INTENT_TOASTS = {
  cancel: {
    title: "Event cancelled",
    description: "Its page says so; subscribed calendars show it as cancelled at their next poll.",
  },
  reinstate: {
    title: "Event reinstated",
    description: "It is on again; subscribed calendars show it as confirmed at their next poll.",
  },
  delete: { title: "Event deleted" },
} as const;

const notFound = () => new Response("No such event.", { status: 404, headers: NO_STORE });

/**
 * `POST /admin/events` (id null: create) and `POST /admin/events/<id>` by `intent`: `save`
 * (the default), `cancel` and `delete` (each confirmed first on the page), `reinstate`.
 */
export async function eventAction(request: Request, context: AppLoadContext, admin: Admin, id: number | null) {
  const { env, ctx } = context.cloudflare;
  const form = await readForm(request, { maxBytes: MAX_BODY });
  const intent = form.get("intent") ?? "save";
  const db = getDb(env);

  if (intent === "cancel" || intent === "reinstate" || intent === "delete") {
    if (id === null) throw new Response("Bad request: expected an event.", { status: 400, headers: NO_STORE });
    const write = { cancel: cancelEvent, reinstate: reinstateEvent, delete: deleteEvent }[intent];
    const event = await write(db, id, admin.email);
    if (!event) throw notFound();
    return redirectWithToast(
      env,
      request,
      intent === "delete" ? pages.eventsAdmin.path : eventAdminPath(id),
      INTENT_TOASTS[intent],
      { status: 303, headers: NO_STORE },
    );
  }
  if (intent !== "save") throw new Response("Bad request: unknown intent.", { status: 400, headers: NO_STORE });

  const submission = parseWithZod(form, { schema: withKnownVenture(eventSchema, await ventureIds(db)) });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400, headers: NO_STORE });
  const saved = await saveEvent(db, {
    id,
    input: submission.value,
    actor: admin.email,
    siteUrl: getConfig(env).siteUrl,
  });
  if (!saved) throw notFound();
  if (saved.alerted) ctx.waitUntil(fanOutAlerts(env, ctx));
  return redirectWithToast(
    env,
    request,
    eventAdminPath(saved.event.id),
    {
      // A new event, or a draft published now, is news; any other edit is simply saved.
      title:
        saved.event.published && !saved.before?.published
          ? "Event published"
          : saved.event.published
            ? "Saved"
            : "Saved as draft",
      ...(saved.alerted ? { description: "Investor alerts are on their way." } : {}),
    },
    { status: 303, headers: NO_STORE },
  );
}
