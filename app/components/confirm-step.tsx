import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/button";

/**
 * The confirmation step of an action that cannot be undone, without JavaScript: the action's
 * button is a link to the same page with `?confirm=<intent>` (and the record's id), whose loader
 * reads it back (`confirmIntent`); the page then shows this box, whose button posts the intent
 * and whose Cancel returns to `cancelTo`. Deleting a person, a news item and a document, unpublishing and withdrawing use it.
 */
export function ConfirmStep({
  title,
  body,
  button,
  intent,
  action,
  fields = {},
  cancelTo = ".",
}: {
  title: string;
  body: string;
  button: string;
  intent: string;
  /** Where the form posts; the page itself when left out. */
  action?: string;
  /** Hidden fields posted with the intent (a record's id). */
  fields?: Record<string, string | number>;
  /** Where Cancel goes: the page without `?confirm` unless given. */
  cancelTo?: string;
}) {
  return (
    <section
      className="mt-8 rounded-xl border border-destructive/50 p-6"
      aria-labelledby="confirm-title"
      data-testid="confirm-step"
    >
      <h2 id="confirm-title" className="text-lg font-semibold [overflow-wrap:anywhere]">
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

/** The intent a page's `?confirm=` asks to confirm, when it is one of `intents`. */
export function confirmIntent<T extends string>(request: Request, intents: readonly T[]): T | null {
  const asked = new URL(request.url).searchParams.get("confirm");
  return intents.find((i) => i === asked) ?? null;
}
