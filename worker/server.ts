// The worker entry: Workers Static Assets answer files in build/client first; everything else
// reaches Remix here, and every response leaves with the security headers.
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore - written by `remix vite:build`
import * as build from "../build/server/index.js";
import { withDocumentClosedLast } from "./document-stream";
import { getLoadContext, type CloudflareContext } from "./load-context";
import { readConfig, withBindings } from "../app/utils/config.server";
import { bookmarkSetCookie, openRequestDb, type RequestDb } from "../app/utils/d1-session.server";
import { getDb } from "../app/utils/db.server";
import { readContentGeneration } from "../app/features/content/generation.server";
import { ventureFrameOrigins } from "../app/features/ventures/catalogue.server";
import { fromCacheEntry, htmlCacheKey, isCacheable, toCacheEntry } from "./html-cache";
import { log, requestIdOf } from "../app/utils/log.server";
import { serverTiming, Timings } from "../app/utils/timing.server";
import { timedBuild } from "./timed-build";
import { servingProblems } from "./production-config";
import { wwwRedirect } from "./www-redirect";
import { background } from "./background";
import { hashSource, withSecurityHeaders, type ScriptSources } from "./security-headers";
import { carriesSession } from "../app/features/auth/session.server";
import { crossSiteRefusal } from "../app/features/forms/same-origin.server";
import { manifestRefusal } from "./manifest-request";
import { oneClickAsData } from "./one-click";
import { NOT_FOUND_PAGE_HEADER, notFoundPageRequest } from "../app/utils/not-found-page";
import { filePostRequest } from "../app/utils/file-posts";

const serverBuild = build as unknown as ServerBuild;
const handleRemixRequest = createRequestHandler(timedBuild(serverBuild));
/**
 * The hash of the inlined stylesheet (entry.server.tsx exports its text), which every page of this
 * build carries unchanged: computed at the isolate's first request, then reused (a rendered page
 * and a stored one alike need no nonce for it; docs/decisions/062-styles-by-hash.md).
 */
const { stylesheet } = serverBuild.entry.module as unknown as { stylesheet: string };
let stylesheetHash: Promise<string> | undefined;
/**
 * The origins a page may frame (the shown ventures' websites), read from the catalogue once per
 * content generation and isolate: the same list object while nothing changed, so the CSP's text is
 * reused too (docs/decisions/090-one-html-cache-refresh.md).
 */
let frameOriginsMemo: { generation: string; origins: Promise<readonly string[]> } | undefined;
const NO_DOMAINS: readonly string[] = [];

function frameOriginsAt(db: Parameters<typeof ventureFrameOrigins>[0], generation: string) {
  if (frameOriginsMemo?.generation !== generation) {
    const origins = ventureFrameOrigins(db);
    frameOriginsMemo = { generation, origins };
    // A failed read is not kept: the next request asks again.
    origins.catch(() => (frameOriginsMemo = undefined));
  }
  return frameOriginsMemo.origins;
}
let configLogged = false;
export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    // The request's URL, parsed once here for every check of the worker's (each parse showed in
    // a member's render profile).
    const url = new URL(request.url);
    const secure = url.protocol === "https:";
    const personal = carriesSession(request);
    // Only the catalogue's shown ventures' sites may be framed: set once the catalogue is read below
    // (a response before that, a refusal, frames nothing).
    let frameOrigins = NO_DOMAINS;
    // Responses that render no page (refusals, the 500) run no script at all.
    const styles = await (stylesheetHash ??= hashSource(stylesheet));
    // A render's loaders and actions (a hit has none: its stored copy keeps no Server-Timing, so a
    // visitor never sees another's render as theirs); its D1 statements only where
    // SERVER_TIMING_DETAIL is on (app/utils/timing.server.ts).
    const timings = new Timings(requestIdOf(request));
    const finish = (response: Response, cache: "hit" | "miss" | "bypass", scripts: ScriptSources = { hashes: [] }) => {
      const out = withSecurityHeaders(response, { scripts, stylesheet: styles, secure, frameOrigins });
      // Whatever was rendered for a member (documents, `?_data=` requests, resource routes) is theirs alone:
      // no browser history cache, proxy or CDN may keep it.
      if (personal && !/no-store/.test(out.headers.get("Cache-Control") ?? ""))
        out.headers.set("Cache-Control", "private, no-store");
      // Time spent in the worker before the response started (the whole render for bots, which
      // get the complete document), first: `npm run bench` reads it. Then the render's phases.
      const phases = timings.header({ statements: readConfig(env).config?.serverTimingDetail });
      const worker = serverTiming("worker", performance.now() - started, cache);
      out.headers.set("Server-Timing", phases ? `${worker}, ${phases}` : worker);
      return out;
    };

    // www.<site> (a Custom Domain of its own, for HSTS's includeSubDomains) answers with the apex.
    const toApex = wwwRedirect(request, env, url);
    if (toApex) return finish(toApex, "bypass");

    // A variable that does not parse, or a production deploy with example secrets or an http:
    // issuer, serves nothing (see the log). Locally the page says what to fix; production's
    // visitors learn nothing about its configuration. Mail settings alone never stop the pages.
    const problems = servingProblems(env);
    if (problems.length) {
      if (!configLogged) log("error", `[config] refusing to serve: ${problems.join("; ")}`, { problems });
      configLogged = true;
      // The raw value: it may be the variable that failed; anything but "development" counts as production.
      const production = env.ENVIRONMENT !== "development";
      const body = production
        ? "This site is not configured yet."
        : `Invalid configuration (wrangler.toml [vars], .dev.vars):\n${problems.map((p) => `- ${p}`).join("\n")}\n`;
      return finish(new Response(body, { status: 503, headers: { "Retry-After": "300" } }), "bypass");
    }

    // A page's form posted from another site: the clear 403 of the pages' own check, before Remix's
    // own origin check answers it with a bare 500.
    const crossSite = crossSiteRefusal(request);
    if (crossSite) return finish(crossSite, "bypass");
    // A route-discovery request no page of ours sends: refused before Remix's costly matching.
    const discovery = manifestRefusal(request, url);
    if (discovery) return finish(discovery, "bypass");

    let requestId: string | undefined;
    try {
      // The request's own D1 session, which every query of the app goes through as `env.DB`
      // (docs/decisions/020-d1-read-replicas.md). Its first read is the content's generation: every
      // cached page is keyed on it, so a change (a venture, a document, a news item: each bumps it
      // in its batch) is a new entry in every data centre at once (docs/decisions/090).
      const requestDb: RequestDb = await openRequestDb(request, env, timings);
      const appDb = getDb(withBindings(env, { DB: requestDb }));
      const generation = await readContentGeneration(appDb);
      frameOrigins = await frameOriginsAt(appDb, generation);
      const key = htmlCacheKey(request, serverBuild.assets.version, url, [generation]);
      // Only a request that may be served from the cache opens it (the getter is not free).
      const cache = key ? (caches as unknown as { default: Cache }).default : null;
      if (key && cache) {
        const hit = await cache.match(key);
        if (hit) {
          const { response, hashes } = fromCacheEntry(hit);
          return finish(response, "hit", { hashes });
        }
      }
      // Only a render needs a fresh nonce (a hit is served as stored).
      const db = requestDb;
      const context = getLoadContext({
        request,
        timings,
        context: {
          cloudflare: {
            env: withBindings(env, { DB: db }),
            ctx,
            cf: request.cf as CloudflareContext["cf"],
            caches: caches as unknown as CloudflareContext["caches"],
          },
        },
      });
      requestId = context.requestId;
      const scripts = { nonce: context.nonce };
      // Posts whose answer is not the page: a page's file form (its resource route answers,
      // app/utils/file-posts.ts) and RFC 8058's one-click unsubscribe (the action's plain text).
      const incoming = filePostRequest(request, url) ?? (await oneClickAsData(request, url));
      let rendered = await handleRemixRequest(incoming, context);
      // A resource route refused a browser's navigation: the not-found page instead of its JSON.
      if (rendered.headers.has(NOT_FOUND_PAGE_HEADER))
        rendered = await handleRemixRequest(notFoundPageRequest(request, url), context);
      let response = withDocumentClosedLast(rendered);
      // After a write, the visitor's next requests start from its bookmark. A response with the
      // cookie is never cached (isCacheable), and the cookie keeps the writer out of the cache.
      const bookmark = await bookmarkSetCookie(request, env, db);
      if (bookmark) {
        response = new Response(response.body, response);
        response.headers.append("Set-Cookie", bookmark);
      }
      if (key && cache && response.body && isCacheable(response)) {
        const [forVisitor, forCache] = response.body.tee();
        ctx.waitUntil(toCacheEntry(new Response(forCache, response)).then((entry) => entry && cache.put(key, entry)));
        response = new Response(forVisitor, response);
      }
      return finish(response, key ? "miss" : "bypass", scripts);
    } catch (error) {
      log("error", "unhandled", { requestId, error });
      return finish(new Response("An unexpected error occurred", { status: 500 }), "bypass");
    }
  },

  ...background,
} satisfies ExportedHandler<Env>;
