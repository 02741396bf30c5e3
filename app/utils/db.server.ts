import { drizzle } from "drizzle-orm/d1";
import * as schema from "~/db/schema";

/** A Drizzle client over the request's D1 binding (never created at module scope). */
export function getDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Db = ReturnType<typeof getDb>;
