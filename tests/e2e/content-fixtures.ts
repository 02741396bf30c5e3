import { TEST_VENTURE_DOMAINS } from "../fixtures/venture-domains";

/**
 * The browser suite's server gets one configured card video (SUBSIDIARY_VIDEOS), so the flip can
 * be exercised; the id is a test value, never shown outside the tests.
 */
export const TEST_VIDEO = { subsidiaryId: "fiscal-me", videoId: "AFXtestVid1" } as const;

export const CONTENT_VARS = {
  // Eight ventures with a (reserved, routed) domain, one without: both states in one server.
  VENTURE_DOMAINS: TEST_VENTURE_DOMAINS,
  SUBSIDIARY_VIDEOS: `${TEST_VIDEO.subsidiaryId}=${TEST_VIDEO.videoId}`,
  // The test server has no route to the ventures' sites; the browser tests drive the frame
  // through Playwright routes instead (the server-side check has its own worker tests).
  EMBED_CHECK: "off",
};
