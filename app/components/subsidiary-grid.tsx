import { Link } from "@remix-run/react";
import { subsidiaries as all, type Subsidiary } from "~/content/subsidiaries";

/**
 * The 1/2/3-column grid of subsidiary cards (SPEC.md "Subsidiary card"). The full card (logo,
 * badge, flip to video) comes with the content issue; this keeps every venture reachable.
 */
export function SubsidiaryGrid({ subsidiaries = all }: { subsidiaries?: readonly Subsidiary[] }) {
  return (
    <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {subsidiaries.map((s) => (
        <li key={s.id} className="rounded-xl border border-border bg-card p-6">
          <h3 className="text-lg font-semibold">
            <Link to={`/subsidiary/${s.id}`}>{s.name}</Link>
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">{s.tagline}</p>
        </li>
      ))}
    </ul>
  );
}
