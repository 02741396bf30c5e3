/**
 * The data layer (docs/decisions/024-data-layer.md): Drizzle's query builder over the request's D1
 * binding for every plain read and write; raw SQL, as Drizzle's `sql` template over the schema's
 * tables and columns, only where a query needs what the builder cannot say or a query-plan test pins
 * it.
 */
import { is, SQL, sql, type Column } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

/**
 * A Drizzle client over the request's D1 binding (never created at module scope): under the worker
 * that is the request's D1 session (utils/d1-session.server.ts), which Drizzle's D1 driver uses
 * through `prepare` and `batch` like the binding. Queries are built from the tables themselves;
 * without `{ schema }` (relational queries, which nothing uses) Drizzle does not rebuild its
 * relations map on every call, several times per request.
 */
export function getDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB);
}

export type Db = ReturnType<typeof getDb>;

const dialect = new SQLiteAsyncDialect();

/** What `statement` takes: a query built with Drizzle, or a `sql` template. */
export type Built = SQL | { toSQL(): { sql: string; params: unknown[] } };

/**
 * A query built with Drizzle (or a `sql` template) as a D1 statement, for a D1 batch that also runs
 * statements other modules contribute (an audit entry, a queued e-mail, the rate limiter's counts):
 * D1's batch is one transaction, and modules hand each other statements, not connections.
 */
export function statement(db: D1Database, query: Built): D1PreparedStatement {
  const { sql: text, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return db.prepare(text).bind(...params);
}

/** A condition or statement as SQL text and its parameters (tests read query plans with it). */
export const toQuery = (query: SQL) => dialect.sqlToQuery(query);

/** A column's bare name, for the column lists of a raw INSERT, ON CONFLICT and RETURNING. */
export const columnName = (column: Column) => sql.identifier(column.name);
