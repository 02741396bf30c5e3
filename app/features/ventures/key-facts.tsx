import type { KeyFact } from "~/db/schema";
import { formatLongDate } from "~/utils/format";

/**
 * Key facts as a page shows them (a venture's on its page, the group's on /investors): each with
 * its as-of date and a link to its source, so a figure can be checked against it (docs/ventures.md).
 */
export function KeyFacts({
  facts,
  headingId,
  heading = "Key facts",
}: {
  facts: readonly Pick<KeyFact, "id" | "label" | "value" | "asOf" | "source">[];
  headingId: string;
  heading?: string;
}) {
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-4 text-2xl font-semibold tracking-tight">
        {heading}
      </h2>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {facts.map((f) => (
          <div key={f.id} className="rounded-xl border border-border bg-card p-4" data-fact>
            <dt className="text-sm text-muted-foreground">{f.label}</dt>
            <dd className="mt-1 text-2xl font-semibold">{f.value}</dd>
            <dd className="mt-2 text-sm text-muted-foreground">
              As of {formatLongDate(new Date(`${f.asOf}T00:00:00Z`))} ·{" "}
              <a href={f.source} className="text-primary underline underline-offset-2">
                Source
              </a>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
