import { applyD1Migrations, env } from "cloudflare:test";
import { afterAll } from "vitest";

// Every test file starts from the migrated schema (the pool isolates storage per file).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

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
