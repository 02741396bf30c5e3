import { TEST_VENTURE_DOMAINS } from "../fixtures/venture-domains";

/**
 * The browser suite's server gets one configured card video (SUBSIDIARY_VIDEOS), so the flip can
 * be exercised; the id is a test value, never shown outside the tests.
 */
export const TEST_VIDEO = { ventureId: "fiscal-me", videoId: "AFXtestVid1" } as const;

export const CONTENT_VARS = {
  // Eight ventures with a (reserved, routed) domain, one without: both states in one server.
  VENTURE_DOMAINS: TEST_VENTURE_DOMAINS,
  SUBSIDIARY_VIDEOS: `${TEST_VIDEO.ventureId}=${TEST_VIDEO.videoId}`,
  // The test server has no route to the ventures' sites; the browser tests drive the frame
  // through Playwright routes instead (the server-side check has its own worker tests).
  EMBED_CHECK: "off",
};

/**
 * A published event the browser suite's server starts with (global-setup.ts), so the pages that
 * show events are scanned, fitted and read without JavaScript with one present: the longest title,
 * location and link a real event brings, for GaaS, in Europe/Berlin.
 */
export const EVENT_FIXTURE = {
  id: 9001,
  slug: "gaas-investor-day-demonstrations-roadmap-and-questions-from-investors-and-partne",
  title: "GaaS investor day: demonstrations, roadmap and questions from investors and partners",
  location: "Konferenzzentrum am Alexanderplatz, Saal Friedrichshain-Kreuzberg, 10178 Berlin",
  url: "https://example.com/webcasts/gaas-investor-day-2027-demonstrations-and-roadmap",
  venture: "gaas",
} as const;

/** The fixture's INSERT, starting `days` from now at 14:00 UTC (two hours). */
export function eventFixtureSql(now = Date.now(), days = 30): string {
  const start = Date.UTC(
    new Date(now + days * 86_400_000).getUTCFullYear(),
    new Date(now + days * 86_400_000).getUTCMonth(),
    new Date(now + days * 86_400_000).getUTCDate(),
    14,
  );
  const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const e = EVENT_FIXTURE;
  return `INSERT INTO events (id, uid, slug, title, description, venture, timezone, all_day, starts_at, ends_at, location, url, status, published, alert, sequence, created_at, updated_at)
VALUES (${e.id}, ${q(`e2e-fixture-${e.id}@localhost`)}, ${q(e.slug)}, ${q(e.title)}, ${q("Demonstrations, the **roadmap** and an open round of questions.")}, ${q(e.venture)}, 'Europe/Berlin', 0, ${start}, ${start + 7_200_000}, ${q(e.location)}, ${q(e.url)}, 'scheduled', 1, 0, 0, ${now}, ${now});`;
}
