// What the page benchmarks need around the worker: seeded leads, a feed to cache, an admin session.
// Each part is used when the project has it.
import { freePort, startWorker } from "../../scripts/lib/local-worker.mjs";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";
import { sampleFeedXml, startFeedServer } from "../../scripts/lib/sample-feed.mjs";
import { seedLeads } from "../../scripts/seed.mjs";

/** `leads` seeded (`confirmed`, `alerts`: scripts/seed.mjs's shares of them, exact counts). */
export async function benchFixtures({ persistTo, leads, confirmed, alerts }) {
  if (leads > 0) seedLeads({ count: leads, confirmed, alerts, persistTo });
  // The blog reads a local feed, so /blog is measured as served from its posts cache.
  const feed = await startFeedServer({ respond: () => ({ body: sampleFeedXml({ items: 50 }) }) });
  const provider = await startLocalProviderIfNeeded({ port: 0 });
  return {
    vars: { BLOG_FEED_URL: feed.url, ...(provider ? { OAUTH_ISSUER: provider.issuer } : {}) },
    adminCookie: provider ? (url) => signInCookie(url, "admin@example.com") : undefined,
    memberCookie: provider ? (url) => signInCookie(url, "member@example.com") : undefined,
    stop: async () => {
      await feed.stop();
      await provider?.stop();
    },
  };
}

/** The admin's news form publishing an item with its investor alert (the alert benches). */
export const alertNewsForm = (title) => ({
  intent: "save",
  title,
  summary: "Measured.",
  body: "Bench.",
  publish: "on",
  alert: "on",
});

/**
 * The built worker as deployed (React's production build) on a free port, with the fixtures'
 * configuration; SITE_URL is this server, so canonical links point at the measured origin.
 */
export async function startBenchWorker({ persistTo, fixtures, vars = {}, inspectorPort = 0 }) {
  const port = await freePort();
  return startWorker({
    port,
    persistTo,
    vars: { SITE_URL: `http://localhost:${port}`, ...fixtures.vars, ...vars },
    stdio: "ignore",
    production: true,
    inspectorPort,
  });
}

/** A whole sign-in at the local provider, as a browser would: the session's Cookie header. */
async function signInCookie(appUrl, email) {
  const jar = new Map();
  const step = async (url) => {
    const res = await fetch(url, {
      redirect: "manual",
      headers: url.startsWith(appUrl) ? { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } : {},
    });
    await res.arrayBuffer();
    if (url.startsWith(appUrl)) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair.indexOf("=");
        if (/max-age=0/i.test(line)) jar.delete(pair.slice(0, i));
        else jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
    }
    if (res.status !== 302 && res.status !== 303) throw new Error(`sign-in: ${url} answered ${res.status}`);
    return new URL(res.headers.get("location"), url);
  };
  const authorize = await step(`${appUrl}/api/login`);
  authorize.searchParams.set("login_email", email);
  const callback = await step(authorize.href);
  await step(callback.href);
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}
