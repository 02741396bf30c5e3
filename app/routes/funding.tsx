import type { MetaFunction } from "@remix-run/cloudflare";
import { BulletList, CardGrid, ContactCta, Section, StatTiles, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { fundingCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { STAGES } from "~/content/ventures";
import { useRootData } from "~/root-data";
import { pageMeta } from "~/utils/meta";

const page = pages.funding;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Funding() {
  // Where We Are Today: read from the catalogue, so it moves when a venture does.
  const ventures = useRootData()?.ventures ?? [];
  const stages = new Set(ventures.map((s) => STAGES[s.status]));
  const today = [
    { value: String(ventures.length), label: "Ventures in the portfolio" },
    { value: [...stages].join(", "), label: "Current stage" },
    { value: String(SITE.foundingYear), label: "Founded" },
  ];
  const { investorEmail } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <Section id="today-heading" heading={copy.todayHeading}>
        <StatTiles tiles={today} />
      </Section>
      <Section id="models-heading" heading={copy.modelHeading}>
        <CardGrid cards={copy.models} columns={3} />
      </Section>
      <Section id="reasons-heading" heading={copy.reasonsHeading}>
        <BulletList items={copy.reasons} />
      </Section>
      <ContactCta
        id="funding-contact"
        heading={copy.ctaHeading}
        email={investorEmail}
        emailLabel={copy.cta}
        subject="Funding AFX Holding Group"
      />
    </>
  );
}
