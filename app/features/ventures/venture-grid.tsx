import type { Venture } from "~/content/ventures";
import { useRootData } from "~/root-data";
import { cardEnterClass } from "~/components/card-enter";
import { VentureCard } from "./venture-card";

/**
 * The 1/2/3-column grid of venture cards, entering 0.1 s apart (none with reduced motion).
 * The ventures come from the catalogue through the root loader (features/ventures). The entrance moves the
 * card, not its list item: the item is laid out only when near the screen (content-visibility in
 * tailwind.css), and moving it made the browser re-lay out the page on every frame of the
 * entrance (docs/decisions/025-phone-speed.md).
 */
export function VentureGrid({ ventures, headingLevel = 3 }: { ventures?: readonly Venture[]; headingLevel?: 2 | 3 }) {
  const root = useRootData();
  return (
    <ul className="card-grid grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {(ventures ?? root?.ventures ?? []).map((s, i) => (
        <li key={s.id}>
          <VentureCard venture={s} headingLevel={headingLevel} className={cardEnterClass(i)} />
        </li>
      ))}
    </ul>
  );
}
