import { Link } from "@remix-run/react";
import { ArrowLeft, Home } from "~/components/ui/icons.generated";
import type { PagePath } from "~/content/pages";

// Paths and titles only (checked against app/content/pages.ts's paths): the not-found page is part
// of the shell's bundle, which carries no page list.
const POPULAR_PAGES: readonly { path: PagePath; title: string }[] = [
  { path: "/portfolio", title: "Portfolio" },
  { path: "/funding", title: "Funding" },
  { path: "/investors", title: "Investors" },
  { path: "/consultancy", title: "Consultancy" },
  { path: "/documents", title: "Documents" },
  { path: "/blog", title: "AFX Insights" },
];

/** The not-found page, rendered with a 404 for unknown paths and hidden pages. */
export function NotFound({ path }: { path?: string }) {
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center">
      <p className="text-7xl font-bold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-semibold">Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">The page you're looking for doesn't exist or has been moved.</p>
      {path && path !== "/" ? (
        <p className="mt-2 break-all text-sm text-muted-foreground">
          <code className="rounded bg-muted px-2 py-1" data-testid="attempted-path">
            {path}
          </code>
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn btn-primary">
          <Home aria-hidden="true" className="size-4" />
          Go to Homepage
        </Link>
        <button type="button" className="btn btn-outline" onClick={() => window.history.back()}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Go Back
        </button>
      </div>
      <nav aria-labelledby="popular-pages" className="mt-12 w-full">
        <h2 id="popular-pages" className="text-lg font-medium">
          Popular Pages
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {POPULAR_PAGES.map((page) => (
            <li key={page.path}>
              <Link
                to={page.path}
                className="block rounded-lg border border-border p-3 hover:bg-muted focus-visible:bg-muted"
              >
                {page.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
