import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getConfig } from "~/utils/config.server";

export function loader({ context }: LoaderFunctionArgs) {
  const { siteUrl } = getConfig(context.cloudflare.env);
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin/",
    "Disallow: /api/",
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
