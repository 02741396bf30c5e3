import type { MetaFunction } from "@remix-run/cloudflare";
import { NewTabLink } from "~/components/ui/new-tab-link";
import { Section } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { pages } from "~/content/pages";
import { formatPrice, STORE_PRODUCT_CLAIM, storeCategories, storeLink, storeProducts } from "~/content/store";
import { pageMeta } from "~/utils/meta";
import { useRootData } from "~/root-data";
import { cardClass } from "~/components/ui/card";

const page = pages.store;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Store() {
  const storeUrl = useRootData()?.storeUrl ?? "";
  return (
    <>
      <PageHeader heading={page.heading}>
        <p>
          Shop {STORE_PRODUCT_CLAIM} products from across the AFX ventures: physical goods, digital products and
          professional services, in our online store.
        </p>
        <NewTabLink href={storeLink(storeUrl)} className="btn btn-primary mt-6">
          Visit the Store
        </NewTabLink>
      </PageHeader>
      <Section id="categories-heading" heading="Shop by Category">
        <ul className="grid gap-4 sm:grid-cols-3">
          {storeCategories.map((c) => (
            <li key={c.id} className={cardClass("lg", "flex flex-col")}>
              <h3 className="text-lg font-semibold">{c.name}</h3>
              <p className="mt-2 flex-1 text-sm text-muted-foreground">{c.description}</p>
              <NewTabLink href={storeLink(storeUrl, c.path)} className="btn btn-outline mt-4 self-start">
                Browse {c.name}
              </NewTabLink>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="featured-heading" heading="Featured Products">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {storeProducts.map((p) => (
            <li key={p.id} className={cardClass("lg", "flex flex-col")}>
              <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {storeCategories.find((c) => c.id === p.categoryId)?.name}
              </p>
              <h3 className="mt-1 text-lg font-semibold">{p.name}</h3>
              <p className="mt-2 flex-1 text-sm text-muted-foreground">{p.description}</p>
              {/* Wraps as a whole: the button goes under a long price rather than breaking its own words. */}
              <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
                <p className="text-2xl font-bold" data-testid="price">
                  {formatPrice(p)}
                </p>
                <a
                  href={storeLink(storeUrl, p.path)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="btn btn-outline whitespace-nowrap"
                  aria-label={`View ${p.name} in the store (opens in a new tab)`}
                >
                  View in Store
                </a>
              </div>
            </li>
          ))}
        </ul>
      </Section>
      <section aria-labelledby="all-products" className="mx-auto max-w-6xl px-4 py-12">
        <div className="rounded-2xl border border-border bg-card p-8 text-center">
          <h2 id="all-products" className="text-2xl font-semibold">
            {STORE_PRODUCT_CLAIM} products and counting
          </h2>
          <p className="mt-3 text-muted-foreground">The full catalogue lives in our online store.</p>
          <NewTabLink href={storeLink(storeUrl)} className="btn btn-primary mt-6">
            Shop All Products
          </NewTabLink>
        </div>
      </section>
    </>
  );
}
