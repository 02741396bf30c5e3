import type { MetaFunction } from "@remix-run/cloudflare";
import { BulletList, CardGrid, ContactCta, Section, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { partnersCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";

const page = pages.partners;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Partners() {
  const { email } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <Section id="benefits-heading" heading={copy.benefitsHeading}>
        <BulletList items={copy.benefits} />
      </Section>
      <Section id="types-heading" heading={copy.typesHeading}>
        <CardGrid cards={copy.types} columns={4} />
      </Section>
      <ContactCta
        id="partner-contact"
        heading={copy.ctaHeading}
        email={email}
        emailLabel={copy.emailCta}
        subject="Partnership with AFX Holding Group"
        callLabel={copy.callCta}
      />
    </>
  );
}
