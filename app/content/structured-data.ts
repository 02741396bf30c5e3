import { SITE } from "./site";
import { ventureUrl, type Venture } from "./ventures";

function urlOf(s: Venture): { url?: string } {
  const url = ventureUrl(s);
  return url ? { url } : {};
}

/** Organization JSON-LD for the landing page (founded 2020, 67000+ employees). */
export function organizationJsonLd(
  siteUrl: string,
  contact: { phone?: string; email?: string } | undefined,
  ventures: readonly Venture[],
) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: SITE.name,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/favicon.svg`,
    description: SITE.defaultDescription,
    foundingDate: String(SITE.foundingYear),
    numberOfEmployees: { "@type": "QuantitativeValue", minValue: Number.parseInt(SITE.employeesClaim, 10) },
    ...(contact?.email || contact?.phone
      ? {
          contactPoint: {
            "@type": "ContactPoint",
            contactType: "customer service",
            ...(contact.phone ? { telephone: contact.phone } : {}),
            ...(contact.email ? { email: contact.email } : {}),
          },
        }
      : {}),
    // A venture's url is its own website, stated only once configured.
    subOrganization: ventures.map((s) => ({ "@type": "Organization", name: s.name, ...urlOf(s) })),
  };
}

/** The subsidiary detail page's organization and breadcrumb JSON-LD. */
export function ventureJsonLd(siteUrl: string, s: Venture) {
  return [
    {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: s.name,
      ...urlOf(s),
      description: s.description,
      slogan: s.tagline,
      parentOrganization: { "@type": "Organization", name: SITE.name, url: `${siteUrl}/` },
    },
    {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Home", item: `${siteUrl}/` },
        { "@type": "ListItem", position: 2, name: "Portfolio", item: `${siteUrl}/portfolio` },
        { "@type": "ListItem", position: 3, name: s.name, item: `${siteUrl}/subsidiary/${s.id}` },
      ],
    },
  ];
}
