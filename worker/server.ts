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
import { fromCacheEntry, fromMemory, htmlCacheKey, isCacheable, isFresh, toCacheEntry, toMemory } from "./html-cache";
import { forgetKnownContent, knownContent, lastKnownContent, type KnownContent } from "./known-content";
import { faultRoute, needsD1, probeD1IfNeeded, watchedBindings } from "./local-faults";
import { outageResponse } from "./outage";
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
import { PRIVATE_NO_STORE } from "../app/utils/no-store";
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
const NO_DOMAINS: readonly string[] = [];
let configLogged = false;
export default {
  async fetch(request, platformEnv, ctx) {
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
    const finish = (
      response: Response,
      cache: "hit" | "stale" | "miss" | "bypass",
      scripts: ScriptSources = { hashes: [] },
    ) => {
      const out = withSecurityHeaders(response, { scripts, stylesheet: styles, secure, frameOrigins });
      // Whatever was rendered for a member (documents, `?_data=` requests, resource routes) is theirs alone:
      // no browser history cache, proxy or CDN may keep it.
      if (personal && !/no-store/.test(out.headers.get("Cache-Control") ?? ""))
        out.headers.set("Cache-Control", PRIVATE_NO_STORE);
      // Time spent in the worker before the response started (the whole render for bots, which
      // get the complete document), first: `npm run bench` reads it. Then the render's phases.
      const phases = timings.header({ statements: readConfig(env).config?.serverTimingDetail });
      const worker = serverTiming("worker", performance.now() - started, cache);
      out.headers.set("Server-Timing", phases ? `${worker}, ${phases}` : worker);
      return out;
    };

    // www.<site> (a Custom Domain of its own, for HSTS's includeSubDomains) answers with the apex.
    // The bindings as this request uses them: noting a failed D1 or R2 call (an outage's answer
    // is not a bug's), and failing every call while the local fault switch is on (never in production).
    const { env, health } = watchedBindings(platformEnv);
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
    // The local outage switch's own path (worker/local-faults.ts); production has none.
    const fault = await faultRoute(request, env, url);
    if (fault) return finish(fault, "bypass");

    const crossSite = crossSiteRefusal(request);
    if (crossSite) return finish(crossSite, "bypass");
    // A route-discovery request no page of ours sends: refused before Remix's costly matching.
    const discovery = manifestRefusal(request, url);
    if (discovery) return finish(discovery, "bypass");

    let requestId: string | undefined;
    /** A stored copy past its 60 s: served only if D1 fails below (stale-if-error, docs/decisions/121). */
    let stale: Response | undefined;
    /** Whether an outage answers instead: a stored copy if there is one, else the 503 in words. */
    const outageAnswer = (status: number) => {
      if (health.d1Failed && stale) {
        const { response, hashes } = fromCacheEntry(stale);
        return finish(response, "stale", { hashes });
      }
      // A page that needs D1 and answered without it (a redirect to sign-in): the outage's words.
      if (status < 500 && !(health.d1Failed && needsD1(url))) return null;
      if (health.d1Failed) return finish(outageResponse(request, url, "d1", stylesheet), "bypass");
      if (health.r2Failed) return finish(outageResponse(request, url, "r2", stylesheet), "bypass");
      return null;
    };
    try {
      // The request's own D1 session, which every query of the app goes through as `env.DB`
      // (docs/decisions/020-d1-read-replicas.md). It opens without a round trip.
      const requestDb: RequestDb = await openRequestDb(request, env, timings);
      const appDb = getDb(withBindings(env, { DB: requestDb }));
      // Only a request that may be served from the cache opens it (the getter is not free).
      const mayCache = htmlCacheKey(request, serverBuild.assets.version, url) !== null;
      const cache = mayCache ? (caches as unknown as { default: Cache }).default : null;
      // Every cached page is keyed on the content's generation, which this isolate keeps and
      // refreshes in the background: a hit makes no D1 call (worker/known-content.ts, decision 120).
      let content: KnownContent | null;
      try {
        content = await knownContent(appDb, ctx, cache, url.origin);
      } catch (error) {
        if (!health.d1Failed) throw error;
        content = await lastKnownContent(cache, url.origin);
      }
      frameOrigins = content?.frameOrigins ?? NO_DOMAINS;
      const key = content && htmlCacheKey(request, serverBuild.assets.version, url, [content.generation]);
      if (key && cache) {
        // The isolate's own copy first, then the data centre's.
        const remembered = fromMemory(key);
        const hit = remembered && isFresh(remembered) ? remembered : await cache.match(key);
        if (hit && isFresh(hit)) {
          const { response, hashes } = fromCacheEntry(hit === remembered ? hit : await toMemory(key, hit));
          return finish(response, "hit", { hashes });
        }
        stale = hit;
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
      await probeD1IfNeeded(env, health, url, rendered.status);
      const instead = outageAnswer(rendered.status);
      if (instead) {
        await rendered.body?.cancel();
        return instead;
      }
      let response = withDocumentClosedLast(rendered);
      // This isolate changed what pages show: its next request reads the content's generation afresh.
      if (db.changedContent) forgetKnownContent();
      // After a write, the visitor's next requests start from its bookmark. A response with the
      // cookie is never cached (isCacheable), and the cookie keeps the writer out of the cache.
      const bookmark = await bookmarkSetCookie(request, env, db);
      if (bookmark) {
        response = new Response(response.body, response);
        response.headers.append("Set-Cookie", bookmark);
      }
      // A page rendered while D1 or R2 failed (a loader that carried on without them) is never stored.
      const whole = !health.d1Failed && !health.r2Failed;
      if (key && cache && whole && response.body && isCacheable(response)) {
        const [forVisitor, forCache] = response.body.tee();
        ctx.waitUntil(
          toCacheEntry(new Response(forCache, response)).then(
            async (entry) => entry && cache.put(key, await toMemory(key, entry)),
          ),
        );
        response = new Response(forVisitor, response);
      }
      return finish(response, key ? "miss" : "bypass", scripts);
    } catch (error) {
      const instead = outageAnswer(500);
      if (instead) {
        log("warn", "[outage] answered for a failed binding", { requestId, error });
        return instead;
      }
      log("error", "unhandled", { requestId, error });
      return finish(new Response("An unexpected error occurred", { status: 500 }), "bypass");
    }
  },

  ...background,
} satisfies ExportedHandler<Env>;
