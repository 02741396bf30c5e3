/**
 * The store hub: three categories and six featured products with fixed prices.
 * The store itself is external (`STORE_URL`); paths below are relative to it.
 * Product names and descriptions are placeholders until the group confirms its catalogue
 * (docs/decisions/003-content-catalogue.md).
 */

export const STORE_PRODUCT_CLAIM = "100+";

interface StoreCategory {
  id: string;
  name: string;
  description: string;
  /** Path of the collection page on the external store. */
  path: string;
}

export const storeCategories: readonly StoreCategory[] = [
  {
    id: "physical-goods",
    name: "Physical Goods",
    description: "Apparel, accessories and merchandise from the AFX ventures.",
    path: "/collections/physical-goods",
  },
  {
    id: "digital-products",
    name: "Digital Products",
    description: "Guides, templates and tools you can download right away.",
    path: "/collections/digital-products",
  },
  {
    id: "professional-services",
    name: "Professional Services",
    description: "Consulting and hands-on support from our teams.",
    path: "/collections/professional-services",
  },
];

interface StoreProduct {
  id: string;
  name: string;
  description: string;
  categoryId: StoreCategory["id"];
  /** Whole US dollars. */
  price: number;
  /** Recurring billing period, when the price is a subscription. */
  per?: "month";
  path: string;
}

export const storeProducts: readonly StoreProduct[] = [
  {
    id: "afx-hoodie",
    name: "AFX Hoodie",
    description: "A heavyweight hoodie with the AFX GROUP logo.",
    categoryId: "physical-goods",
    price: 35,
    path: "/products/afx-hoodie",
  },
  {
    id: "startup-toolkit",
    name: "Startup Toolkit",
    description: "Templates for business plans, budgets and pitch decks.",
    categoryId: "digital-products",
    price: 49,
    path: "/products/startup-toolkit",
  },
  {
    id: "strategy-session",
    name: "Strategy Session",
    description: "A working session with our venture team on your plan.",
    categoryId: "professional-services",
    price: 250,
    path: "/products/strategy-session",
  },
  {
    id: "venture-journal",
    name: "Venture Journal",
    description: "A hardcover notebook for founders and builders.",
    categoryId: "physical-goods",
    price: 75,
    path: "/products/venture-journal",
  },
  {
    id: "fundraising-guide",
    name: "Fundraising Guide",
    description: "A practical e-book on raising your first round.",
    categoryId: "digital-products",
    price: 25,
    path: "/products/fundraising-guide",
  },
  {
    id: "venture-retainer",
    name: "Venture Studio Retainer",
    description: "Ongoing product, growth and operations support.",
    categoryId: "professional-services",
    price: 2500,
    per: "month",
    path: "/products/venture-studio-retainer",
  },
];

/** "$35", "$2,500/month" (whole dollars; the catalogue stays free of the app's helpers). */
export function formatPrice(p: Pick<StoreProduct, "price" | "per">): string {
  const dollars = String(Math.round(p.price)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `$${dollars}${p.per ? `/${p.per}` : ""}`;
}

/** An absolute link on the external store. */
export function storeLink(storeUrl: string, path = "/"): string {
  return `${storeUrl.replace(/\/$/, "")}${path}`;
}
