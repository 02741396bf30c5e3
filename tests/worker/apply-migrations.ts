import { applyD1Migrations, env } from "cloudflare:test";
import { afterAll } from "vitest";
import { seedLibrary } from "~/features/documents/starting.server";
import { seedVentures } from "~/features/ventures/seed.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";

// Every test file starts from the migrated schema with no rows: the files of one pool worker share
// its workerd and so its D1 (tests/fixtures/workers-pool.ts, isolate: false), and each empties it first.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await emptyTables(env.DB);
await emptyTables(env.REPLICA);
// The document library starts as `npm start`'s does: the group's starting documents, seeded.
await seedLibrary(
  getDb(env),
  env.DOCUMENTS,
  env.TEST_STARTING_DOCUMENTS.map(({ base64, ...file }) => ({
    ...file,
    bytes: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
  })),
);
// The portfolio starts as `npm start`'s does: the nine ventures, with the suite's configured domains.
await seedVentures(getDb(env), getConfig(env));
// The Cache API is the runtime's, so shared by those files too (a page another file cached would
// make this file's first visit a hit): each file's caches.default is a named cache of its own.
const ownCache = await caches.open(`file-${crypto.randomUUID()}`);
Object.defineProperty(caches, "default", { value: ownCache, configurable: true });

async function emptyTables(db: D1Database) {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  // Deleted in one transaction with foreign keys checked at its end, so the order does not matter.
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = ON"),
    ...results.map(({ name }) => db.prepare(`DELETE FROM "${name}"`)),
  ]);
  // AUTOINCREMENT ids start again at 1, as in a fresh database.
  if (await db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").first())
    await db.prepare("DELETE FROM sqlite_sequence").run();
}

// The mail queue's consumer sends what a file's signups announced after the request returned: the
// file waits for it (nothing in flight, nothing announced within the queue's 1 s batch window and a
// margin still unclaimed), so its logs do not outlive the file's environment.
afterAll(async () => {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const now = Date.now();
    const busy = await env.DB.prepare(
      "SELECT 1 FROM mail_outbox WHERE status = 'queued' AND (leased_until > ?1 OR (attempts = 0 AND created_at > ?2)) LIMIT 1",
    )
      .bind(now, now - 2_000)
      .first();
    if (!busy) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 20_000);
