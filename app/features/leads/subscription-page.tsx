/**
 * The pages a newsletter e-mail's links open: one frame for the confirmation, the unsubscribe and
 * their outcomes. Every action is a real form (POST), so it works without JavaScript, and a link
 * that no longer works offers the signup again.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { NewsletterSignup } from "~/features/leads/newsletter-signup";
import { SITE } from "~/content/site";
import type { LeadTopic } from "~/db/schema";

/** The source recorded for a signup made on these pages. */
export const SUBSCRIPTION_PAGE_SOURCE = "newsletter";

export function subscriptionMeta(title: string) {
  return [{ title: `${title} | ${SITE.name}` }, { name: "robots", content: "noindex" }];
}

export function SubscriptionPage({
  title,
  children,
  action,
  signUpAgain,
}: {
  title: string;
  children: ReactNode;
  /** The one button of the page, posting to the page itself. */
  action?: { label: string; name?: string };
  /** The topic whose signup form the page offers below (a link that no longer works, an unsubscribe). */
  signUpAgain?: LeadTopic;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <section className="mx-auto max-w-xl px-4 py-16" aria-labelledby="subscription-title">
      <h1 id="subscription-title" className="text-3xl font-bold tracking-tight">
        {title}
      </h1>
      <div className="mt-4 text-muted-foreground">{children}</div>
      {action ? (
        <Form method="post" className="mt-8">
          {action.name ? <input type="hidden" name={action.name} value="on" /> : null}
          <Button type="submit" disabled={busy} aria-disabled={busy}>
            {action.label}
          </Button>
        </Form>
      ) : null}
      {signUpAgain ? (
        <NewsletterSignup variant="full" source={SUBSCRIPTION_PAGE_SOURCE} topic={signUpAgain} className="mt-10" />
      ) : null}
    </section>
  );
}
