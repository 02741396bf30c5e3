import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Section, StatTiles } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { VentureGrid } from "~/features/ventures/venture-grid";
import { portfolioCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { factsOf } from "~/features/ventures/catalogue.server";
import { factTile, figureFact, FIGURE_LABELS } from "~/features/ventures/figures";
import { useRootData } from "~/root-data";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";

const page = pages.portfolio;

/** The group's key fact the tiles read (its sectors). */
export async function loader({ context }: LoaderFunctionArgs) {
  const facts = await factsOf(getDb(context.cloudflare.env), null);
  return json({ sectors: figureFact(facts, FIGURE_LABELS.sectors) ?? null });
}

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Portfolio() {
  const { sectors } = useLoaderData<typeof loader>();
  // The count follows the catalogue: the cards below, one per shown venture.
  const shown = useRootData()?.ventures.length ?? 0;
  const tiles = [
    { value: String(shown), label: FIGURE_LABELS.ventures },
    ...(sectors ? [factTile(sectors)] : []),
    ...copy.tiles,
  ];
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <div className="mx-auto max-w-6xl px-4">
        <StatTiles tiles={tiles} />
      </div>
      <Section id="ventures-heading" heading="Our Ventures">
        <VentureGrid />
      </Section>
    </>
  );
}
