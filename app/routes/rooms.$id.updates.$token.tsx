import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { SITE } from "~/content/site";
import { stopLinkInvitation, stopUpdates } from "~/features/engagement/updates.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { NOT_FOUND } from "~/features/rooms/access.server";
import { roomIdOf, roomPath } from "~/features/rooms/paths";
import { getDb } from "~/utils/db.server";
import { NO_STORE_NO_REFERRER } from "~/utils/no-store";
export { headers } from "~/utils/no-store";

/** The link's token is in the URL: never sent on to another site, never stored. */
const HEADERS = NO_STORE_NO_REFERRER;

async function target(env: Env, params: { id?: string; token?: string }) {
  const roomId = roomIdOf(params.id);
  const found = roomId ? await stopLinkInvitation(env, getDb(env), roomId, params.token ?? "") : null;
  // A link that is not this room's, or whose signature fails, answers as an unknown page.
  if (!roomId || !found) throw NOT_FOUND();
  return { roomId, ...found };
}

/**
 * GET /rooms/<id>/updates/<token>, the "Updated:" mail's stop link (docs/decisions/119): asks, with
 * one button; nothing changes until it is pressed.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await target(context.cloudflare.env, params);
  return json(
    { roomTitle: found.roomTitle, stopped: found.updatesOffAt !== null, room: roomPath(found.roomId) },
    { headers: HEADERS },
  );
}

/**
 * The page's button, and RFC 8058's one-click POST (`List-Unsubscribe=One-Click`, which a mail
 * client sends from its own servers, so no Origin of ours): the signed link is the proof. The
 * mail client gets a plain 200; a person the page again, saying it is done.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const form = await readForm(request, { maxBytes: 1024 });
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  if (!oneClick) requireSameOrigin(request);
  const found = await target(env, params);
  await stopUpdates(getDb(env), found.id);
  if (oneClick)
    return new Response("Unsubscribed.", {
      status: 200,
      headers: { ...HEADERS, "Content-Type": "text/plain; charset=utf-8" },
    });
  return redirect(new URL(request.url).pathname, { status: 303, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.stopped ? "Update e-mails stopped" : "Stop update e-mails"} | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function StopUpdates() {
  const { roomTitle, stopped, room } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto max-w-xl px-4 py-16" aria-labelledby="stop-updates-title">
      <h1 id="stop-updates-title" className="wrap-anywhere text-3xl font-bold tracking-tight">
        {stopped ? "Update e-mails stopped" : `Stop update e-mails from “${roomTitle}”?`}
      </h1>
      {stopped ? (
        <p className="wrap-anywhere mt-4 text-muted-foreground" role="status">
          You will get no more “Updated:” e-mails from the room “{roomTitle}”. You can turn them on again in the room,
          under “What we recorded about you”.
        </p>
      ) : (
        <>
          <p className="mt-4 text-muted-foreground">
            We e-mail you when a document you read in this room gets a new version. The room and its documents stay open
            to you either way.
          </p>
          <Form method="post" className="mt-8">
            <Button type="submit">Stop update e-mails</Button>
          </Form>
        </>
      )}
      <p className="mt-8 text-sm">
        <a href={room} className="text-primary underline underline-offset-2">
          Go to the room
        </a>
      </p>
    </section>
  );
}
