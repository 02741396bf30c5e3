import { Link } from "@remix-run/react";
import { SubsidiaryGrid } from "~/components/subsidiary-grid";
import { pages } from "~/content/pages";

/** SPEC.md "Public landing page" (content issue). */
export function Landing() {
  return (
    <>
      <section className="mx-auto max-w-4xl px-4 py-20 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">{pages.home.heading}</h1>
        <p className="mt-6 text-lg text-muted-foreground">Browse our ventures and consider funding us!</p>
        <div className="mt-10">
          <Link to={pages.portfolio.path} className="btn btn-primary">
            Explore Portfolio
          </Link>
        </div>
      </section>
      <section id="portfolio" aria-label="Portfolio" className="mx-auto max-w-6xl px-4 pb-16">
        <SubsidiaryGrid />
      </section>
    </>
  );
}
