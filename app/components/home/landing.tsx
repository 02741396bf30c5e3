import { Link } from "@remix-run/react";
import { ArrowRight } from "~/components/ui/icons.generated";
import { VentureGrid } from "~/features/ventures/venture-grid";
import { StatTiles } from "~/components/content/blocks";
import { landingCopy as copy, portfolioCopy } from "~/content/copy";
import type { PagePath } from "~/content/pages";
import { SITE } from "~/content/site";

const PORTFOLIO: PagePath = "/portfolio";

/** The public landing page (`/` for visitors who are not signed in). */
export function Landing() {
  return (
    <>
      <section aria-labelledby="hero-heading" className="mx-auto max-w-4xl px-4 py-20 text-center">
        <h1 id="hero-heading" className="text-4xl font-bold tracking-tight sm:text-6xl">
          {SITE.name}
        </h1>
        <p className="mt-4 text-xl font-medium sm:text-2xl">{copy.headline}</p>
        <p className="mt-4 text-lg text-muted-foreground">{copy.subheadline}</p>
        <div className="mt-10">
          <Link to={PORTFOLIO} className="btn btn-primary px-6 py-3 text-base">
            {copy.cta}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
      </section>
      <section id="portfolio" aria-labelledby="portfolio-heading" className="mx-auto max-w-6xl scroll-mt-20 px-4 pb-16">
        <h2 id="portfolio-heading" className="text-3xl font-bold tracking-tight">
          {copy.portfolioHeading}
        </h2>
        <p className="mb-8 mt-2 max-w-3xl text-muted-foreground">{copy.portfolioIntro}</p>
        <VentureGrid />
      </section>
      <section aria-labelledby="about-heading" className="border-y border-border bg-muted/40">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 md:grid-cols-2">
          <div>
            <h2 id="about-heading" className="text-3xl font-bold tracking-tight">
              {copy.aboutHeading}
            </h2>
            {copy.about.map((p) => (
              <p key={p} className="mt-4 text-muted-foreground">
                {p}
              </p>
            ))}
          </div>
          <StatTiles tiles={portfolioCopy.tiles} className="self-center" />
        </div>
      </section>
      <section aria-labelledby="connect-heading" className="mx-auto max-w-3xl px-4 py-20 text-center">
        <h2 id="connect-heading" className="text-3xl font-bold tracking-tight">
          {copy.connectHeading}
        </h2>
        <p className="mt-4 text-muted-foreground">{copy.connectText}</p>
        {/* A full navigation: /api/login starts the sign-in redirect dance. */}
        <a href="/api/login" className="btn btn-primary mt-8 px-6 py-3 text-base">
          {copy.connectCta}
        </a>
      </section>
    </>
  );
}
