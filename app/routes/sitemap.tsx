import type { MetaFunction } from "@remix-run/cloudflare";
import { PageHeader } from "~/components/page-header";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";

const page = pages.sitemap;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Page() {
  return <PageHeader heading={page.heading}>{page.description}</PageHeader>;
}
