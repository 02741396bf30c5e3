import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { CLIENT_ERROR_MAX_BYTES, cleanClientError } from "~/features/client-errors/report";
import { BodyError, readBody } from "~/features/forms/body.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { log } from "~/utils/log.server";

const notAllowed = () => new Response(null, { status: 405, headers: { Allow: "POST" } });

export const loader = notAllowed;

/**
 * POST /api/client-errors: one error report from the browser's error boundary, written to the
 * worker's log (Workers Logs) with the request id. Limited per client network like the forms,
 * so a broken page or a script cannot flood the log; what is not a report (405, 415, 413, 400) is
 * refused before the limiter writes anything. 204: a beacon reads no answer.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return notAllowed();
  const { env, ctx } = context.cloudflare;
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readBody(request, { maxBytes: CLIENT_ERROR_MAX_BYTES, accept: ["json"] }));
  } catch (error) {
    if (error instanceof BodyError) return error.toResponse();
    throw error;
  }
  let report;
  try {
    report = cleanClientError(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    report = null;
  }
  if (!report) return Response.json({ message: "Send { message, path }." }, { status: 400 });
  const limit = await limitClient(request, env, "clientError", (p) => ctx.waitUntil(p));
  if (!limit.allowed) return new Response(null, { status: 429, headers: { "Retry-After": String(limit.retryAfter) } });
  // Past the form's ceiling (a burst) the report is taken and not logged: the log's volume is
  // what the ceiling protects here.
  if (limit.pacedUntil === null) log("error", "client error", { requestId: context.requestId, report });
  return new Response(null, { status: 204 });
}
