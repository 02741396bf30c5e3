import { env } from "cloudflare:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "~/db/schema";

// Migrations are hand-written SQL; this keeps them and the Drizzle schema in step.
const tables = (Object.values(schema) as unknown[]).filter(
  (v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
);

describe("migrations match app/db/schema.ts", () => {
  it("has tables to check", () => expect(tables.length).toBeGreaterThanOrEqual(2));

  it("creates exactly the schema's tables", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name != 'd1_migrations'",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name).sort()).toEqual(tables.map((t) => getTableConfig(t).name).sort());
  });

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))("%s", async (name, table) => {
    const config = getTableConfig(table);
    const { results } = await env.DB.prepare(`PRAGMA table_info(${name})`).all<{
      name: string;
      notnull: number;
      pk: number;
    }>();
    const actual = Object.fromEntries(results.map((c) => [c.name, { notNull: c.notnull === 1 || c.pk === 1 }]));
    const expected = Object.fromEntries(config.columns.map((c) => [c.name, { notNull: c.notNull || c.primary }]));
    expect(actual).toEqual(expected);
    const { results: indexes } = await env.DB.prepare(`PRAGMA index_list(${name})`).all<{
      name: string;
      unique: number;
    }>();
    const actualIndexes = indexes
      .filter((i) => !i.name.startsWith("sqlite_autoindex"))
      .map((i) => i.name)
      .sort();
    expect(actualIndexes).toEqual(config.indexes.map((i) => i.config.name).sort());
  });
});
