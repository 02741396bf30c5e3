import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { investorAccess } from "~/features/engagement/access.server";
import { NO_STORE } from "~/utils/no-store";
import { acceptReport } from "~/features/engagement/readings.server";
import { getDb } from "~/utils/db.server";

/** The largest report body read: a report names at most 20 pages. */
const MAX_BODY = 4096;

/**
 * POST /rooms/<id>/reading: the viewer's report of page times (`navigator.sendBeacon`, JSON
 * `{ reading, pages: [{ page, seconds }] }`), for the investor of this browser's room session only
 * (docs/decisions/116). 204 when stored; 400 for what is not a report; 404 for a reading that is not
 * theirs or whose consent is gone; 422 for an implausible one. Nothing is stored but on a 204.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env);
  const access = await investorAccess(request, env, db, params.id);
  const answer = (status: number, message?: string) =>
    message
      ? Response.json({ message }, { status, headers: NO_STORE })
      : new Response(null, { status, headers: NO_STORE });
  const text = await request.text();
  if (text.length > MAX_BODY) return answer(413, "A report is at most 4 KiB.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return answer(400, "A report is JSON: { reading, pages: [{ page, seconds }] }.");
  }
  const { reading, pages } = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (typeof reading !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(reading))
    return answer(400, "A report names its reading.");
  const outcome = await acceptReport(db, { invitationId: access.invitation.id, readingId: reading, pages });
  if (outcome.ok) return answer(204);
  if (outcome.reason === "unknown") return answer(404, "No such reading.");
  if (outcome.reason === "shape") return answer(400, "Each page is { page, seconds } with a whole page number.");
  return answer(
    422,
    outcome.reason === "page"
      ? "The document has no such page."
      : "More seconds than have passed since the last report.",
  );
}
