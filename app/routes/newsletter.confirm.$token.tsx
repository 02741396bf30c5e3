import { displayAddress } from "~/utils/address-display.server";
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
import { checkConfirmToken, confirmSubscription, type TokenCheck } from "~/features/leads/subscription.server";
import { readForm } from "~/features/forms/body.server";
import { COOKIES, signedCookie } from "~/utils/cookies.server";
import { sha256Hex } from "~/utils/crypto.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

// The link is a secret: never cached, never indexed.
const STATUS: Record<TokenCheck["state"], number> = { valid: 200, expired: 410, unknown: 404 };
/** How long Back to a link this browser just confirmed says so (a used link is otherwise "not valid"). */
const JUST_CONFIRMED_S = 30 * 60;
const justConfirmed = (request: Request, env: Env) => signedCookie(request, env, COOKIES.confirmed, JUST_CONFIRMED_S);

/** GET shows the button and confirms nothing: mail scanners open links before people do. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const token = params.token ?? "";
  const check = await checkConfirmToken(getDb(env), token);
  if (check.state === "unknown") {
    // "<hash of the token> <topic>": this browser confirmed this link a moment ago.
    const [hash, topic] = String((await justConfirmed(request, env).parse(request.headers.get("Cookie"))) ?? "").split(
      " ",
    );
    if (hash === (await sha256Hex(token)))
      return json(
        { state: "confirmed" as const, topic: topic === "alerts" ? ("alerts" as const) : null },
        { headers: NO_STORE },
      );
  }
  return json(
    check.state === "valid"
      ? { state: check.state, email: displayAddress(check.email), topic: check.topic }
      : { state: check.state, topic: check.state === "expired" ? check.topic : null },
    {
      status: STATUS[check.state],
      headers: NO_STORE,
    },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await readForm(request, { maxBytes: 1024 });
  const { env } = context.cloudflare;
  const token = params.token ?? "";
  const result = await confirmSubscription(env, token);
  if (result.state === "valid")
    return redirect(result.topic === "alerts" ? "/newsletter/confirmed?topic=alerts" : "/newsletter/confirmed", {
      status: 303,
      headers: {
        ...NO_STORE,
        "Set-Cookie": await justConfirmed(request, env).serialize(`${await sha256Hex(token)} ${result.topic}`),
      },
    });
  return json({ state: result.state }, { status: STATUS[result.state], headers: NO_STORE });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const T = subscriptionText(data && "topic" in data ? data.topic : null);
  return subscriptionMeta(
    data?.state === "valid"
      ? T.confirmTitle
      : data?.state === "confirmed"
        ? T.confirmedTitle
        : data?.state === "expired"
          ? T.expiredTitle
          : T.invalidTitle,
  );
};

export default function ConfirmSubscription() {
  const result = useLoaderData<typeof loader>();
  const T = subscriptionText("topic" in result ? result.topic : null);
  if (result.state === "valid" && "email" in result) {
    return (
      <SubscriptionPage title={T.confirmTitle} action={{ label: T.confirmButton }}>
        <p>{T.confirmBody(result.email)}</p>
      </SubscriptionPage>
    );
  }
  if (result.state === "confirmed")
    return (
      <SubscriptionPage title={T.confirmedTitle}>
        <p data-testid="subscription-confirmed">{T.confirmedBody}</p>
      </SubscriptionPage>
    );
  const expired = result.state === "expired";
  return (
    <SubscriptionPage title={expired ? T.expiredTitle : T.invalidTitle} signUpAgain={T.topic}>
      <p>{expired ? T.expiredBody : T.invalidBody}</p>
    </SubscriptionPage>
  );
}
