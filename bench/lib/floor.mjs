// The framework floor as a page (issue 28): a bare Remix app with the site's runtime (the same
// React, Remix, entry.client and future flags) and the site's built stylesheet, built by the bench
// in a temporary directory (never part of the shipped build) and served by a small Node server
// with gzip, like the site's static assets. Lighthouse measures it in the same run as the site's
// pages, so the machine's own noise is visible and a page's cost is its difference to the floor.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ROOT } from "../../scripts/lib/config.mjs";
import { run } from "../../scripts/lib/local-worker.mjs";

const ROOT_TSX = `import type { LinksFunction } from "@remix-run/server-runtime";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import { useContext, type ReactNode } from "react";
import { STYLESHEET } from "./stylesheet";
import { InlineCss } from "./inline-css";

export const links: LinksFunction = () => (STYLESHEET ? [{ rel: "stylesheet", href: STYLESHEET }] : []);

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content="The framework floor: a bare Remix page." />
        {STYLESHEET ? null : <style id="stylesheet" dangerouslySetInnerHTML={{ __html: useContext(InlineCss) }} />}
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
`;

const INDEX_TSX = `export const meta = () => [{ title: "Framework floor" }];

export default function Floor() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">Framework floor</h1>
      <p className="mt-4 text-muted-foreground">A bare Remix page: the site's runtime and stylesheet, nothing of its own.</p>
    </main>
  );
}
`;

// As the site does it (app/components/shell/inline-stylesheet.tsx): the server has the CSS, the
// browser reads it from the document, so the client bundle carries no copy.
const INLINE_CSS_TS = `import { createContext } from "react";
export const InlineCss = createContext(typeof document === "undefined" ? "" : (document.getElementById("stylesheet")?.textContent ?? ""));
`;

const ENTRY_SERVER_TSX = `import type { EntryContext } from "@remix-run/server-runtime";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { InlineCss } from "./inline-css";
import { INLINE_CSS } from "./stylesheet.server";

export default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  const html =
    "<!DOCTYPE html>" +
    renderToString(
      <InlineCss.Provider value={INLINE_CSS}>
        <RemixServer context={context} url={request.url} />
      </InlineCss.Provider>,
    );
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { status, headers });
}
`;

const VITE_CONFIG = `import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from ${JSON.stringify(pathToFileURL(resolve(ROOT, "remix.config.js")).href)};

export default defineConfig({
  plugins: [remix({ ...remixConfig })],
  esbuild: { legalComments: "eof" },
  build: { minify: true },
});
`;

const TYPES = { ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html" };

/**
 * The site's stylesheet as a document of the site delivers it: inlined (a <style> in the head,
 * app/components/shell/inline-stylesheet.tsx) or linked (its URL is fetched from the site).
 */
export async function siteStylesheet(siteUrl) {
  const html = await (await fetch(`${siteUrl}/`, { headers: { Accept: "text/html" } })).text();
  const inline = html.match(/<style[^>]*>([\s\S]*?)<\/style>/)?.[1];
  if (inline !== undefined) return { inline: true, text: inline, href: "" };
  const href =
    html.match(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/)?.[1] ??
    html.match(/<link[^>]+href="([^"]+\.css)"[^>]+rel="stylesheet"/)?.[1];
  if (!href) throw new Error("The site's document has neither an inlined nor a linked stylesheet.");
  return { inline: false, text: await (await fetch(new URL(href, siteUrl))).text(), href: "/assets/site.css" };
}

/**
 * Builds the floor app and serves it on a free port. `css` (siteStylesheet) is delivered as the
 * site delivers it (a <style> in the head or a <link>), so both pay the same for it.
 */
export async function startFloor(css) {
  const inlineCss = css.inline;
  const dir = mkdtempSync(join(tmpdir(), "afx-floor-"));
  mkdirSync(join(dir, "app/routes"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "app/root.tsx"), ROOT_TSX);
  writeFileSync(join(dir, "app/routes/_index.tsx"), INDEX_TSX);
  writeFileSync(
    join(dir, "app/routes.ts"),
    `import { flatRoutes } from "@remix-run/fs-routes";\nexport default flatRoutes();\n`,
  );
  writeFileSync(join(dir, "app/entry.server.tsx"), ENTRY_SERVER_TSX);
  copyFileSync(join(ROOT, "app/entry.client.tsx"), join(dir, "app/entry.client.tsx"));
  writeFileSync(
    join(dir, "app/stylesheet.ts"),
    `export const STYLESHEET = ${JSON.stringify(inlineCss ? "" : css.href)};\n`,
  );
  writeFileSync(
    join(dir, "app/stylesheet.server.ts"),
    `export const INLINE_CSS = ${JSON.stringify(inlineCss ? css.text : "")};\n`,
  );
  writeFileSync(join(dir, "app/inline-css.ts"), INLINE_CSS_TS);
  writeFileSync(join(dir, "vite.config.mjs"), VITE_CONFIG);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", sideEffects: false }));
  run(resolve(ROOT, "node_modules/.bin/remix"), ["vite:build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  if (!inlineCss) writeFileSync(join(dir, "build/client", css.href), css.text);

  const { createRequestHandler } = await import(
    pathToFileURL(join(ROOT, "node_modules/@remix-run/server-runtime/dist/esm/index.js")).href
  );
  const handle = createRequestHandler(
    await import(pathToFileURL(join(dir, "build/server/index.js")).href),
    "production",
  );
  const client = join(dir, "build/client");
  const server = http.createServer(async (req, res) => {
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    const send = (status, type, body, cache) => {
      const bytes = gzip ? gzipSync(body) : body;
      res.writeHead(status, {
        "Content-Type": type,
        "Cache-Control": cache,
        ...(gzip ? { "Content-Encoding": "gzip" } : {}),
        "Content-Length": bytes.length,
      });
      res.end(bytes);
    };
    const path = decodeURIComponent(new URL(req.url, "http://floor").pathname);
    if (path.startsWith("/assets/") && !path.includes("..")) {
      try {
        return send(
          200,
          TYPES[extname(path)] ?? "application/octet-stream",
          readFileSync(join(client, path)),
          "public, max-age=31536000, immutable",
        );
      } catch {
        return send(404, "text/plain", Buffer.from("not found"), "no-store");
      }
    }
    // One page: what Lighthouse asks for besides it (robots.txt, favicon.ico) is a plain 404.
    if (path !== "/" && path !== "/__manifest" && !path.endsWith(".data"))
      return send(404, "text/plain", Buffer.from("not found"), "no-store");
    const response = await handle(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers }),
    );
    send(
      response.status,
      response.headers.get("Content-Type") ?? "text/html",
      Buffer.from(await response.arrayBuffer()),
      "no-store",
    );
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://localhost:${server.address().port}`,
    stop: async () => {
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
