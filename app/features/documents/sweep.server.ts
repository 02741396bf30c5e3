/**
 * The orphan sweep (the Cron Trigger, worker/scheduled.ts): an R2 object the catalogue does not
 * name is what a crash between the upload and the catalogue's write (or between a delete's two
 * steps) left behind. Only objects older than an upload can take are removed, so an upload in
 * progress, whose row is not written yet, is never touched.
 */
import { getDb } from "~/utils/db.server";
import { knownKeys } from "./catalogue.server";
import { OBJECT_PREFIX } from "./upload.server";

/** Longer than any upload: 50 MiB over a slow line, and the catalogue's write after it. */
export const ORPHAN_AFTER_MS = 60 * 60 * 1000;
/** R2 lists at most 1,000 keys a page; a run reads a few pages at most. */
const MAX_PAGES = 10;

export async function sweepOrphans(env: Env, now = Date.now()): Promise<number> {
  let cursor: string | undefined;
  let removed = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await env.DOCUMENTS.list({ prefix: OBJECT_PREFIX, cursor, limit: 1000 });
    const old = listed.objects.filter((o) => now - o.uploaded.getTime() > ORPHAN_AFTER_MS).map((o) => o.key);
    const known = await knownKeys(getDb(env), old);
    const orphans = old.filter((key) => !known.has(key));
    if (orphans.length) await env.DOCUMENTS.delete(orphans);
    removed += orphans.length;
    if (!listed.truncated) break;
    cursor = listed.cursor;
  }
  return removed;
}
