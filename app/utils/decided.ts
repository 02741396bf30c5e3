/**
 * A list that must decide every column of a table (listed or not, exported or not...) states it
 * with `EveryKeyDecided`: `const X: EveryKeyDecided<keyof Row, keyof typeof A | keyof typeof B> =
 * true` compiles only while each key is in one of the lists, and otherwise names the ones left out
 * (`Type 'true' is not assignable to type '{ undecided: "company" }'`). A new column then fails
 * `npm run typecheck` in every list that has not decided it (docs/decisions/081).
 */
export type EveryKeyDecided<Keys extends PropertyKey, Decided extends PropertyKey> = [Exclude<Keys, Decided>] extends [
  never,
]
  ? true
  : { undecided: Exclude<Keys, Decided> };

/** The SQL names of a Drizzle table's columns (`first_name`...), for lists written in SQL's names. */
export type ColumnNames<Table extends { _: { columns: object } }> = {
  [K in keyof Table["_"]["columns"]]: Table["_"]["columns"][K] extends { _: { name: infer N extends string } }
    ? N
    : never;
}[keyof Table["_"]["columns"]];
