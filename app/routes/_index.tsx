import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { pageMeta } from "~/utils/meta";

const page = pages.home;

export const meta: MetaFunction = ({ matches, location }) =>
  pageMeta({ page, matches, path: location.pathname });

export default function Home() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-20 text-center">
      <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">{page.heading}</h1>
      <p className="mt-6 text-lg text-muted-foreground">Browse our ventures and consider funding us!</p>
      <div className="mt-10">
        <Link to={pages.portfolio.path} className="btn btn-primary">
          Explore Portfolio
        </Link>
      </div>
      <p className="sr-only">{SITE.defaultDescription}</p>
    </section>
  );
}
