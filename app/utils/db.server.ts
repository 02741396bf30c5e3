/**
 * The data layer (docs/decisions/024-data-layer.md, 065): one handle, `Db`, Drizzle over the
 * request's D1 session, which every data function takes; Drizzle's query builder for every plain
 * read and write; raw SQL, as Drizzle's `sql` template over the schema's tables and columns, only
 * where a query needs what the builder cannot say or a query-plan test pins it.
 */
import { is, SQL, sql, type Column } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

/** Drizzle over one D1 binding: the handle every data function takes. */
export type Db = ReturnType<typeof drizzle<Record<string, never>, D1Database>>;

/** One handle per binding: under the worker, per request (its D1 session is a binding of its own). */
const HANDLES = new WeakMap<D1Database, Db>();

/**
 * The request's `Db`, and the only place that turns a D1 binding into one. Under the worker
 * `env.DB` is the request's D1 session (utils/d1-session.server.ts), which Drizzle's D1 driver
 * uses through `prepare` and `batch` like the binding; the Cron Trigger, the queue and `vite dev`
 * pass the plain binding. Never kept at module scope: a binding belongs to one request. Without
 * `{ schema }` (relational queries, which nothing uses) Drizzle builds no relations map.
 */
export function getDb(env: Pick<Env, "DB">): Db {
  let db = HANDLES.get(env.DB);
  if (!db) HANDLES.set(env.DB, (db = drizzle(env.DB)));
  return db;
}

/**
 * What a batch runs, and what modules hand each other for the caller's batch (an audit entry, a
 * queued e-mail, a suppression entry, the rate limiter's guarded write): a query built with
 * Drizzle's builder, or a `sql` template.
 */
export type Statement = BatchItem<"sqlite"> | SQL;

/** A statement's result in a batch: the builder's own (rows, mapped; or D1's run result), D1's result for a `sql` template. */
export type StatementResult<S> = S extends SQL ? D1Result : S extends BatchItem<"sqlite"> ? S["_"]["result"] : never;

/** What Drizzle's builders carry for its own batch (typed internal: Drizzle's d1 batch calls the same). */
interface Prepared {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, isFromBatch: boolean): unknown;
  /** A select's columns, in order. */
  fields?: readonly unknown[];
  /** The statement Drizzle prepared on the handle's client, unbound. */
  stmt?: D1PreparedStatement;
}

const dialect = new SQLiteAsyncDialect();

/**
 * Runs `statements` as one D1 batch: one transaction, one round trip, in order. The one way to
 * batch: builder queries come back as Drizzle maps them (rows with Dates, or D1's run result), a
 * `sql` template as D1's result. Drizzle's own `db.batch` cannot run a `sql` template with
 * parameters (`db.run(sql)` has no prepared statement to bind), so each is prepared here.
 */
export async function batch<const T extends readonly Statement[]>(
  db: Db,
  statements: T,
): Promise<{ -readonly [K in keyof T]: StatementResult<T[K]> }> {
  const prepared = statements.map((s) => (is(s, SQL) ? null : (s as unknown as { _prepare(): Prepared })._prepare()));
  const client = db.$client;
  const results = await client.batch(
    statements.map((s, i) => {
      const query = prepared[i];
      const { sql: text, params } = query?.getQuery() ?? dialect.sqlToQuery(s as SQL);
      // A builder's statement is prepared already (once is enough: the session sees each once).
      return (query?.stmt ?? client.prepare(text)).bind(...params);
    }),
  );
  return results.map((result, i) => {
    const query = prepared[i];
    if (!query) return result;
    // A batch's rows are objects keyed by column name, which Drizzle reads back in order: a name
    // selected twice (two tables' `id`) would shift every column after it. Said, not mis-read.
    const first = (result as D1Result<Record<string, unknown>>).results?.[0];
    if (query.fields && first && Object.keys(first).length !== query.fields.length)
      throw new Error(`A batched select names a column twice; alias one: ${query.getQuery().sql.slice(0, 120)}`);
    return query.mapResult(result, true);
  }) as { -readonly [K in keyof T]: StatementResult<T[K]> };
}

/** A condition or statement as SQL text and its parameters (tests read query plans with it). */
export const toQuery = (query: SQL) => dialect.sqlToQuery(query);

/** A column's bare name, for the column lists of a raw INSERT, ON CONFLICT and RETURNING. */
export const columnName = (column: Column) => sql.identifier(column.name);

/** Reads waiting, per handle, for the batch they go out in. */
interface Waiting {
  statements: readonly Statement[];
  resolve: (results: unknown[]) => void;
  reject: (error: unknown) => void;
}
const WAITING = new WeakMap<Db, Waiting[]>();

/**
 * Reads that share the request's next round trip (docs/decisions/125): every `together` on one
 * handle before the event loop turns — the root's and the page's loaders, which Remix starts at
 * once, or the reads of one `Promise.all` — goes out as one `batch`, and each caller gets its own
 * results. For reads only, with nothing to wait for between them: a batch is one transaction, so
 * one read that fails would fail its neighbours, and they are then run alone, each to its own
 * answer. A select's columns need distinct names (a batch's rows are objects: see Drizzle's d1
 * batch mapping), as for `batch`.
 */
export function together<const T extends readonly Statement[]>(
  db: Db,
  statements: T,
): Promise<{ -readonly [K in keyof T]: StatementResult<T[K]> }> {
  type Results = { -readonly [K in keyof T]: StatementResult<T[K]> };
  if (!statements.length) return Promise.resolve([] as unknown as Results);
  return new Promise<Results>((resolve, reject) => {
    let waiting = WAITING.get(db);
    if (!waiting) {
      const queue: Waiting[] = (waiting = []);
      WAITING.set(db, queue);
      // A timer, not a microtask: loaders that start together reach their first read a few
      // microtasks apart, and all of them before the event loop turns.
      setTimeout(() => {
        WAITING.delete(db);
        void runTogether(db, queue);
      }, 0);
    }
    waiting.push({ statements, resolve: resolve as Waiting["resolve"], reject });
  });
}

async function runTogether(db: Db, queue: Waiting[]) {
  let results: unknown[];
  try {
    results = await batch(
      db,
      queue.flatMap((w) => w.statements),
    );
  } catch (error) {
    if (queue.length === 1) return queue[0]!.reject(error);
    // One read's failure is its own: each caller's reads are run again alone.
    for (const w of queue) batch(db, w.statements).then(w.resolve, w.reject);
    return;
  }
  let at = 0;
  for (const w of queue) w.resolve(results.slice(at, (at += w.statements.length)));
}

/** One read of `together`, its result alone. */
export async function read<S extends Statement>(db: Db, statement: S): Promise<StatementResult<S>> {
  const [result] = await together(db, [statement] as const);
  return result;
}
