import { drizzle } from "drizzle-orm/d1";

/**
 * A Drizzle client over the request's D1 binding (never created at module scope). Queries are
 * built from the tables themselves; without `{ schema }` (relational queries, which nothing uses)
 * Drizzle does not rebuild its relations map on every call, several times per request.
 */
export function getDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB);
}

export type Db = ReturnType<typeof getDb>;
