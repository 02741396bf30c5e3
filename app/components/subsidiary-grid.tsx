import { subsidiaries as all, withDomains, withVideos, type Subsidiary } from "~/content/subsidiaries";
import { useRootData } from "~/root-data";
import { cardEnterClass } from "./card-enter";
import { SubsidiaryCard } from "./subsidiary-card";

/**
 * The 1/2/3-column grid of subsidiary cards, entering 0.1 s apart (none with reduced motion).
 * Video ids and domains come from configuration through the root loader.
 */
export function SubsidiaryGrid({
  subsidiaries = all,
  headingLevel = 3,
}: {
  subsidiaries?: readonly Subsidiary[];
  headingLevel?: 2 | 3;
}) {
  const root = useRootData();
  return (
    <ul className="card-grid grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {withDomains(withVideos(subsidiaries, root?.videos), root?.domains).map((s, i) => (
        <li key={s.id} className={cardEnterClass(i)}>
          <SubsidiaryCard subsidiary={s} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
