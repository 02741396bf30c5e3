import { Link } from "@remix-run/react";
import { ConfirmStep } from "~/components/confirm-step";
import { buttonClass } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import type { KeyFact } from "~/db/schema";

/** The `?confirm=` a fact's Remove asks, and the fact it names. */
export const REMOVE_FACT = "remove-fact";
/** A fact's place in its list: where its Remove asks, so the question opens in view without JavaScript. */
const factAnchor = (id: number) => `key-fact-${id}`;
export const removeFactHref = (path: string, id: number) =>
  `${path}?confirm=${REMOVE_FACT}&fact=${id}#${factAnchor(id)}`;

/** The fact whose removal the page's address asks to confirm, or null. */
export function factToConfirm(request: Request): number | null {
  const params = new URL(request.url).searchParams;
  const id = Number(params.get("fact"));
  return params.get("confirm") === REMOVE_FACT && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The key facts an admin page lists (the group's on /admin/ventures, a venture's on its page):
 * each with its date and its source by name (a document version by its title and version), and a
 * Remove that asks first, without JavaScript (ConfirmStep). The question and its answer land at
 * the list, where Remove was pressed (docs/decisions/105-answers-in-view.md).
 */
export function KeyFactList({
  facts,
  sourceLabels,
  path,
  confirming,
  testId,
}: {
  facts: readonly Pick<KeyFact, "id" | "label" | "value" | "asOf" | "source">[];
  /** factSourceLabels' names, by source address. */
  sourceLabels: Readonly<Record<string, string>>;
  /** The page the list is on: where Remove asks and posts. */
  path: string;
  /** The fact whose removal is being confirmed. */
  confirming: number | null;
  testId: string;
}) {
  // The list's own anchor (its test id): a removal and a cancelled one come back to it.
  const list = `${path}#${testId}`;
  if (!facts.length)
    return (
      <p id={testId} className="mt-2 scroll-mt-24 text-sm text-muted-foreground">
        No key facts yet.
      </p>
    );
  return (
    <ul id={testId} className="mt-4 grid scroll-mt-24 gap-2" data-testid={testId}>
      {facts.map((f) => (
        <li
          key={f.id}
          id={factAnchor(f.id)}
          className={cardClass("sm", "flex scroll-mt-24 flex-wrap items-center gap-3")}
        >
          <span className="min-w-0 flex-1 basis-48 wrap-anywhere">
            <strong>{f.label}</strong>: {f.value} (as of {f.asOf}) ·{" "}
            <a href={f.source} className="underline underline-offset-4">
              {sourceLabels[f.source] ?? f.source}
            </a>
          </span>
          {confirming === f.id ? (
            <div className="basis-full">
              <ConfirmStep
                title={`Remove the fact “${f.label}”?`}
                body="It leaves every page that shows it at once. To bring it back, add it again."
                button="Remove fact"
                intent={REMOVE_FACT}
                action={list}
                fields={{ fact: f.id }}
                cancelTo={list}
              />
            </div>
          ) : (
            <Link to={removeFactHref(path, f.id)} preventScrollReset className={buttonClass("destructive")}>
              Remove<span className="sr-only"> {f.label}</span>
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
