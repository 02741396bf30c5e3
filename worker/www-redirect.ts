/**
 * `www.` + SITE_URL's host, served as a Custom Domain of its own (wrangler.toml): HSTS's
 * `includeSubDomains; preload` covers it, and a visitor who types it lands on the one canonical
 * origin. 308 keeps the method and body of a form posted there; search engines treat it as a 301.
 * The raw SITE_URL: the redirect needs no other setting to be valid.
 */
export function wwwRedirect(request: Request, env: Pick<Env, "SITE_URL">, url = new URL(request.url)): Response | null {
  if (!url.hostname.startsWith("www.") || !URL.canParse(env.SITE_URL)) return null;
  const site = new URL(env.SITE_URL);
  if (url.hostname !== `www.${site.hostname}`) return null;
  return new Response(null, {
    status: 308,
    headers: { Location: `${site.origin}${url.pathname}${url.search}`, "Cache-Control": "public, max-age=86400" },
  });
}
