import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { subscriptionText } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";
import { followUnsubscribeLink, readUnsubscribeToken, unsubscribeTarget } from "~/features/leads/subscription.server";
import { maskAddress } from "~/features/mail/message";
import { getDb } from "~/utils/db.server";
import { displayAddress } from "~/utils/address-display.server";
import { readForm } from "~/features/forms/body.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/**
 * GET asks, naming the address (masked: a forwarded e-mail shows no more than its domain), and
 * shows one button; nothing changes until it is pressed.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const id = await readUnsubscribeToken(env, params.token ?? "");
  if (id === null)
    return json(
      { valid: false, address: null, listed: false, topic: "newsletter" as const },
      { status: 404, headers: NO_STORE },
    );
  const target = await unsubscribeTarget(getDb(env), id);
  return json(
    {
      valid: true,
      address: target ? maskAddress(displayAddress(target.email), "•••") : null,
      listed: target?.listed ?? false,
      topic: target?.topic ?? "newsletter",
    },
    { headers: NO_STORE },
  );
}

/**
 * The page's button, and RFC 8058's one-click POST that mail clients send without a cookie or a
 * session (body `List-Unsubscribe=One-Click`): both unsubscribe at once (from a confirmation
 * e-mail: "this wasn't me", the address suppressed). The mail client gets a plain 200; a person
 * is taken to the outcome page.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const form = await readForm(request, { maxBytes: 1024 });
  const id = await readUnsubscribeToken(env, params.token ?? "");
  if (id === null) return json({ valid: false }, { status: 404, headers: NO_STORE });
  const target = await unsubscribeTarget(getDb(env), id);
  await followUnsubscribeLink(env, id);
  if (form.get("List-Unsubscribe") === "One-Click") {
    return new Response("Unsubscribed.", {
      status: 200,
      headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return redirect(target?.topic === "alerts" ? "/newsletter/unsubscribed?topic=alerts" : "/newsletter/unsubscribed", {
    status: 303,
    headers: NO_STORE,
  });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const T = subscriptionText(data?.topic);
  return subscriptionMeta(data?.valid ? T.unsubscribeTitle : T.badUnsubscribeTitle);
};

export default function Unsubscribe() {
  const { valid, address, listed, topic } = useLoaderData<typeof loader>();
  const T = subscriptionText(topic);
  if (valid && address && !listed)
    return (
      <SubscriptionPage title={T.alreadyUnsubscribedTitle} signUpAgain={topic}>
        <p className="wrap-anywhere">{T.alreadyUnsubscribedBody(address, topic)}</p>
      </SubscriptionPage>
    );
  // The lead gone (erased): the button still answers "unsubscribed", which is true.
  return valid ? (
    <SubscriptionPage
      title={address ? T.unsubscribeQuestion(address, topic) : T.unsubscribeTitle}
      action={{ label: T.unsubscribeButton }}
    >
      <p>{T.unsubscribeBody(topic)}</p>
    </SubscriptionPage>
  ) : (
    <SubscriptionPage title={T.badUnsubscribeTitle}>
      <p>{T.badUnsubscribeBody}</p>
    </SubscriptionPage>
  );
}
