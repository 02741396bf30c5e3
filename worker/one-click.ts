// RFC 8058's one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` to the
// link of the List-Unsubscribe header, which is the unsubscribe (or stop) page's own URL. Remix answers a
// page's action with the whole page, so such a POST is sent to the route's data URL instead,
// where the action's own plain-text answer ("Unsubscribed.") is the response as it is.
import { readCapped } from "../app/features/forms/read-capped.server";

/** The one-click links: the newsletter's unsubscribe and a room's "Updated:" mails' stop (docs/decisions/119). */
const ONE_CLICK_ROUTES: readonly [RegExp, string][] = [
  [/^\/newsletter\/unsubscribe\/[^/]+$/, "routes/newsletter.unsubscribe.$token"],
  [/^\/rooms\/[^/]+\/updates\/[^/]+$/, "routes/rooms.$id.updates.$token"],
];
/** A one-click body is a few dozen bytes; anything longer is read by the page's action as usual. */
const MAX_BYTES = 1024;

/** The request Remix should see: a one-click unsubscribe as a data request, anything else unchanged. */
export async function oneClickAsData(request: Request, url: URL): Promise<Request> {
  const route = ONE_CLICK_ROUTES.find(([path]) => path.test(url.pathname))?.[1];
  if (request.method !== "POST" || !route || url.searchParams.has("_data")) return request;
  const copy = request.clone().body;
  const bytes = copy ? await readCapped(copy, MAX_BYTES) : null;
  const body = bytes ? new TextDecoder().decode(bytes) : "";
  if (!/List-Unsubscribe/.test(body) || !/One-Click/.test(body)) return request;
  const data = new URL(url);
  data.searchParams.set("_data", route);
  return new Request(data, request);
}
