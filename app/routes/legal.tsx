import type { MetaFunction } from "@remix-run/cloudflare";
import { Panel, telHref, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { legalCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { pageMeta } from "~/utils/meta";

const page = pages.legal;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Legal() {
  const { email, phone } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>
        <p>Last updated {copy.lastUpdated}</p>
      </PageHeader>
      <div className="mx-auto max-w-3xl px-4 pb-12">
        <nav aria-label="On this page" className="mb-8">
          <ul className="flex gap-4 text-sm">
            {copy.sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-primary underline underline-offset-4">
                  {s.heading}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {copy.sections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-heading`} className="mb-10 scroll-mt-20">
            <h2 id={`${s.id}-heading`} className="text-2xl font-semibold">
              {s.heading}
            </h2>
            {s.paragraphs.map((p) => (
              <p key={p} className="mt-4 leading-relaxed text-muted-foreground">
                {p}
              </p>
            ))}
          </section>
        ))}
        <Panel id="legal-contact" heading="Contact">
          <address className="mt-3 not-italic text-muted-foreground">
            {SITE.name}
            <br />
            Email:{" "}
            <a href={`mailto:${email}`} className="text-primary underline underline-offset-4">
              {email}
            </a>
            <br />
            Phone:{" "}
            <a href={telHref(phone)} className="text-primary underline underline-offset-4">
              {phone}
            </a>
          </address>
        </Panel>
      </div>
    </>
  );
}
