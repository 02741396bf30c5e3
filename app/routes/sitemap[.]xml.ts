import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getConfig } from "~/utils/config.server";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { subsidiaries } from "~/content/subsidiaries";

// Public pages only: the signed-in and admin pages are not for search engines.
const PRIVATE: readonly string[] = [...ADMIN_PAGES.map((p) => p.path), pages.settings.path, pages.notifications.path];

export function loader({ context }: LoaderFunctionArgs) {
  const { siteUrl } = getConfig(context.cloudflare.env);
  const paths = [
    ...Object.values(pages)
      .map((p) => p.path)
      .filter((p) => !PRIVATE.includes(p)),
    ...subsidiaries.map((s) => `/subsidiary/${s.id}`),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${siteUrl}${p}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
