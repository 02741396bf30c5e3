import type { MetaFunction } from "@remix-run/cloudflare";
import { Section, StatTiles } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { VentureGrid } from "~/features/ventures/venture-grid";
import { portfolioCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";

const page = pages.portfolio;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Portfolio() {
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <div className="mx-auto max-w-6xl px-4">
        <StatTiles tiles={copy.tiles} />
      </div>
      <Section id="ventures-heading" heading="Our Ventures">
        <VentureGrid />
      </Section>
    </>
  );
}
