/**
 * Where a form's answer lands (docs/decisions/105-answers-in-view.md): the one mechanism that puts
 * an error or a result in the viewport where the person pressed, with and without JavaScript.
 *
 * The form posts to its page with its answer's fragment (`answerAction`). Without JavaScript the
 * browser lands on that fragment when the answer page loads, and a 303 whose Location has no
 * fragment inherits it, so a redirect's flash lands there too. With JavaScript Remix keeps the
 * fragment in the location and scrolls to it, and `FormAnswer` takes the focus when a new answer
 * arrives, so a screen reader reads it. The box sits just above the form's button.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "~/components/ui/cn";

/** The id of a form's answer box, the fragment its action carries. */
export const answerId = (formId: string) => `${formId}-answer`;

/** A form's action: its page (`path`, any fragment dropped) with the answer's fragment. */
export const answerAction = (path: string, formId: string) => `${path.split("#")[0]}#${answerId(formId)}`;

/** A field's error, named by its label, as the answer box lists it. */
export interface FieldProblem {
  /** The input's id: the list links to it. */
  id: string;
  label: string;
  errors: readonly string[];
}

/** The fields of a conform form that carry errors, by their labels (those without a label are left out). */
export function fieldProblems(
  fields: Record<string, { id: string; errors?: string[] }>,
  labels: Record<string, string>,
): FieldProblem[] {
  return Object.entries(labels).flatMap(([name, label]) => {
    const field = fields[name];
    return field?.errors?.length ? [{ id: field.id, label, errors: field.errors }] : [];
  });
}

/**
 * The box's message: the form's own errors (under conform's `errorId`, which the form's
 * aria-describedby names), else, when fields are to be corrected, a line that says so.
 */
export function answerMessage(
  form: { errors?: string[]; errorId: string },
  problems: readonly FieldProblem[],
): ReactNode {
  if (form.errors?.length) return <span id={form.errorId}>{form.errors.join(" ")}</span>;
  return problems.length ? "Please check these fields:" : null;
}

export function FormAnswer({
  formId,
  answer,
  tone = "error",
  message,
  problems = [],
  className,
  children,
}: {
  formId: string;
  /** The answer this box shows (the action data, by identity): a new one takes the focus. */
  answer: unknown;
  tone?: "error" | "result";
  /** The form's own message (a refusal, or the result). */
  message?: ReactNode;
  /** The fields to correct, each linked. */
  problems?: readonly FieldProblem[];
  className?: string;
  /** More of the result (an outcome's details). */
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const moved = useRef<unknown>(undefined);
  const shown = Boolean(message) || problems.length > 0 || Boolean(children);
  useEffect(() => {
    // Only a new answer moves the focus; a re-render of the same one does not. `shown` too: conform
    // reports a reply's field errors a render after the reply arrives (an upload's XHR answer).
    if (!answer || !ref.current || !shown || moved.current === answer) return;
    moved.current = answer;
    ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: "nearest" });
  }, [answer, shown]);
  return (
    <div
      ref={ref}
      id={answerId(formId)}
      tabIndex={-1}
      role={tone === "error" ? "alert" : "status"}
      data-testid="form-answer"
      // Clear of the sticky header when the browser lands on it.
      className={cn("scroll-mt-24 outline-none", shown && "rounded-md border p-3 text-sm", className, {
        "border-destructive text-destructive": shown && tone === "error",
        "border-border": shown && tone === "result",
      })}
    >
      {message ? <p className="wrap-anywhere font-medium">{message}</p> : null}
      {problems.length ? (
        <ul className={cn("grid gap-1", message && "mt-2")}>
          {problems.map((p) => (
            <li key={p.id} className="wrap-anywhere">
              <a href={`#${p.id}`} className="tap-target font-medium underline underline-offset-2">
                {p.label}
              </a>
              : {p.errors.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
      {children}
    </div>
  );
}
