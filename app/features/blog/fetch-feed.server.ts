// Fetching the feed with hard limits: a slow or huge feed must not hold a request or a worker.
import { readCapped } from "~/features/forms/read-capped.server";

/** A feed fetch is abandoned after 3 s or past 5 MB (docs/decisions/007-blog-feed.md). */
export const FEED_TIMEOUT_MS = 3_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;

export class FeedFetchError extends Error {
  override name = "FeedFetchError";
}

export type FetchFeedOptions = {
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
};

function charsetOf(contentType: string | null): string {
  return /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? "")?.[1] ?? "utf-8";
}

/** Reads at most `maxBytes` of a body; past that the body is cancelled and the read fails. */
async function readFeedBody(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readCapped(body, maxBytes);
  if (!bytes) throw new FeedFetchError(`feed larger than ${maxBytes} bytes`);
  return bytes;
}

/** The feed document as text. Throws FeedFetchError on any failure, timeout or excess. */
export async function fetchFeed(url: string, options: FetchFeedOptions = {}): Promise<string> {
  const { fetch: doFetch = fetch, timeoutMs = FEED_TIMEOUT_MS, maxBytes = FEED_MAX_BYTES } = options;
  if (!/^https?:\/\//i.test(url)) throw new FeedFetchError(`not an http(s) feed URL: ${url}`);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One deadline for headers and body alike: a feed that trickles is as slow as one that stalls.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new FeedFetchError(`feed took longer than ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const download = (async () => {
    const response = await doFetch(url, {
      signal: controller.signal,
      redirect: "follow",
      headers: {
        Accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1",
        "User-Agent": "AFX-Holding-Group-Blog/1.0",
      },
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new FeedFetchError(`feed answered ${response.status}`);
    }
    if (Number(response.headers.get("Content-Length") ?? 0) > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new FeedFetchError(`feed larger than ${maxBytes} bytes`);
    }
    const bytes = await readFeedBody(response.body, maxBytes);
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(charsetOf(response.headers.get("Content-Type")));
    } catch {
      decoder = new TextDecoder();
    }
    return decoder.decode(bytes);
  })();
  try {
    return await Promise.race([download, deadline]);
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // workerd's answer to a host it cannot resolve or reach says only "internal error; reference = …".
    throw new FeedFetchError(
      /^internal error/.test(message) ? "the feed's host could not be reached (DNS or network)" : message,
    );
  } finally {
    clearTimeout(timer);
    // The loser of the race must not surface as an unhandled rejection.
    download.catch(() => {});
  }
}
