import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";

// One way to write a migration (docs/decisions/002-migrations.md): a hand-written
// migrations/NNNN_name.sql, numbered in order. No generator journal or snapshot lives beside them.
describe("migrations/", () => {
  const entries = readdirSync(new URL("../../migrations", import.meta.url), { withFileTypes: true });

  it("holds only NNNN_snake_case.sql files", () => {
    const strays = entries.filter((e) => !e.isFile() || !/^\d{4}_[a-z0-9_]+\.sql$/.test(e.name)).map((e) => e.name);
    expect(strays).toEqual([]);
  });

  it("numbers them 0000, 0001, … without gaps or repeats", () => {
    const numbers = entries.map((e) => Number(e.name.slice(0, 4))).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i));
  });
});
