import type { MetaFunction } from "@remix-run/cloudflare";
import { CardGrid, ContactCta, Section, StatTiles, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { investorsCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";

const page = pages.investors;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Investors() {
  const { investorEmail } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <div className="mx-auto max-w-6xl px-4">
        <StatTiles tiles={copy.tiles} />
      </div>
      <Section id="why-heading" heading={copy.whyHeading}>
        <CardGrid cards={copy.why} columns={4} />
      </Section>
      <ContactCta
        id="investor-contact"
        heading={copy.ctaHeading}
        email={investorEmail}
        emailLabel={copy.emailCta}
        subject="Investing in AFX Holding Group"
        callLabel={copy.callCta}
      />
    </>
  );
}
