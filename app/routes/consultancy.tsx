import type { MetaFunction } from "@remix-run/cloudflare";
import { CardGrid, ContactCta, Section, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { consultancyCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";

const page = pages.consultancy;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Consultancy() {
  const { email } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <Section id="criteria-heading" heading={copy.criteriaHeading}>
        <CardGrid cards={copy.criteria} columns={4} />
      </Section>
      <Section id="support-heading" heading={copy.supportHeading}>
        <CardGrid cards={copy.support} columns={4} />
      </Section>
      <ContactCta
        id="consultancy-contact"
        heading={copy.ctaHeading}
        email={email}
        emailLabel={copy.cta}
        subject="Consultancy inquiry"
      />
    </>
  );
}
