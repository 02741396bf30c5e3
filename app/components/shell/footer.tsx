import { Link } from "@remix-run/react";
import { Mail, Phone } from "~/components/ui/icons.generated";
import { lazy, Suspense } from "react";
import { NewsletterSignup as EagerSignup } from "~/features/leads/newsletter-signup";
import { SITE } from "~/content/site";
import { useRootData } from "~/root-data";
import { FOOTER_QUICK_LINKS, LEGAL_PATH } from "./nav-links";

// The footer's signup form (its form library is ~11 KB gzip) is off the landing's critical path:
// the server renders it synchronously (so the HTML always has it, JavaScript or not); in the
// browser its code loads beside the page's, from the moment this module runs, and React hydrates
// the block when it arrives (selective hydration). The client build drops the static import.
const loadSignup = () => import("~/features/leads/newsletter-signup").then((m) => ({ default: m.NewsletterSignup }));
const NewsletterSignup = import.meta.env.SSR
  ? EagerSignup
  : lazy(
      (
        (p) => () =>
          p
      )(loadSignup()),
    );

/** The site footer. Phone and e-mail come from configuration (placeholders until set). */
export function Footer() {
  const root = useRootData();
  return (
    <footer className="mt-16 border-t border-border bg-card/40 text-sm">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <h2 id="footer-newsletter" className="text-base font-semibold">
            Stay in the loop
          </h2>
          <p className="mt-2 text-muted-foreground">News from {SITE.name} and its ventures, in your inbox.</p>
          <Suspense fallback={null}>
            <NewsletterSignup variant="compact" source="footer" className="mt-4 max-w-md" />
          </Suspense>
        </div>
        <div>
          <h2 id="footer-about" className="text-base font-semibold">
            About {SITE.name}
          </h2>
          <p className="mt-2 text-muted-foreground">
            A digital portfolio hub for our ventures in fintech, food tech, government services, family support, pet
            care, journalism and logistics.
          </p>
          {root ? (
            <ul className="mt-4 space-y-2">
              <li>
                <a href={`tel:${root.contact.phone}`} className="inline-flex items-center gap-2 hover:underline">
                  <Phone aria-hidden="true" className="size-4" />
                  {root.contact.phone}
                </a>
              </li>
              <li>
                <a href={`mailto:${root.contact.email}`} className="inline-flex items-center gap-2 hover:underline">
                  <Mail aria-hidden="true" className="size-4" />
                  {root.contact.email}
                </a>
              </li>
            </ul>
          ) : null}
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-base font-semibold">
            Quick Links
          </h2>
          <ul className="mt-2 space-y-2">
            {FOOTER_QUICK_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="text-muted-foreground hover:text-foreground hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-muted-foreground sm:flex-row">
          <p>{`© ${SITE.copyrightYear} ${SITE.name}. All rights reserved.`}</p>
          <ul className="flex gap-4">
            <li>
              <Link to={LEGAL_PATH} className="hover:text-foreground hover:underline">
                Privacy
              </Link>
            </li>
            <li>
              <Link to={LEGAL_PATH} className="hover:text-foreground hover:underline">
                Terms
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
