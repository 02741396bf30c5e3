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
import { cancelEvent, deleteEvent, saveEvent } from "~/features/events/events.server";
import { pages } from "~/content/pages";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { NO_STORE } from "~/utils/no-store";

/** A form at every limit, 3 bytes a character, and room for the other fields and the parts. */
const MAX_BODY = (EVENT_LIMITS.title + EVENT_LIMITS.description + EVENT_LIMITS.location + EVENT_LIMITS.url) * 3 + 8192;

/** An id from the URL, or null. */
export const eventIdOf = (value: string | undefined): number | null =>
  /^[1-9]\d{0,15}$/.test(value ?? "") ? Number(value) : null;

const notFound = () => new Response("No such event.", { status: 404, headers: NO_STORE });

/**
 * `POST /admin/events` (id null: create) and `POST /admin/events/<id>` by `intent`: `save`
 * (the default), `cancel`, `delete`.
 */
export async function eventAction(request: Request, context: AppLoadContext, admin: Admin, id: number | null) {
  const { env, ctx } = context.cloudflare;
  const form = await readForm(request, { maxBytes: MAX_BODY });
  const intent = form.get("intent") ?? "save";
  const db = getDb(env);

  if (intent === "cancel" || intent === "delete") {
    if (id === null) throw new Response("Bad request: expected an event.", { status: 400, headers: NO_STORE });
    const event = intent === "delete" ? await deleteEvent(db, id, admin.email) : await cancelEvent(db, id, admin.email);
    if (!event) throw notFound();
    return redirectWithToast(
      env,
      request,
      intent === "delete" ? pages.eventsAdmin.path : eventAdminPath(id),
      { title: intent === "delete" ? "Event deleted" : "Event cancelled" },
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
      title: saved.event.published ? "Event published" : "Event saved as draft",
      ...(saved.alerted ? { description: "Investor alerts are on their way." } : {}),
    },
    { status: 303, headers: NO_STORE },
  );
}
