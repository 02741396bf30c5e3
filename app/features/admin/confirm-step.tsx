/**
 * The confirmation step of an admin action, without JavaScript: the action's button is a link to
 * the page with `?confirm=<intent>`, whose loader hands the intent back; this section then holds
 * the one form that acts, beside a Cancel link back to the page (as deleting a person does).
 */
import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/button";

export interface ConfirmStepProps {
  /** The form's `intent`. */
  intent: string;
  title: string;
  body: string;
  /** The button that acts. */
  button: string;
  /** Where the form posts (the page itself unless given). */
  action?: string;
  /** Extra fields the action needs (a version id…). */
  fields?: Record<string, string>;
  /** Where Cancel goes: the page without `?confirm`. */
  cancelTo?: string;
}

/** The `?confirm=` value when it is one of `intents`, else null (for the page's loader). */
export function confirmIntent<T extends string>(request: Request, intents: readonly T[]): T | null {
  const asked = new URL(request.url).searchParams.get("confirm");
  return intents.find((intent) => intent === asked) ?? null;
}

export function ConfirmStep({ intent, title, body, button, action, fields = {}, cancelTo = "." }: ConfirmStepProps) {
  return (
    <section
      className="mt-6 rounded-xl border border-destructive/50 p-6"
      aria-labelledby="confirm-title"
      data-testid="confirm-step"
    >
      <h2 id="confirm-title" className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-2 text-sm text-muted-foreground">{body}</p>
      <Form method="post" action={action} className="mt-4 flex flex-wrap gap-3">
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit" variant="destructive">
          {button}
        </Button>
        <Link to={cancelTo} className={buttonClass("outline")}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
