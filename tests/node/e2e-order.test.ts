import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { LONGEST } from "../e2e/sequencer";

// A browser file missing from the clean-clone order runs last, where a long one leaves the other
// worker idle for its whole length (tests/e2e/sequencer.ts).
it("every browser test file has its place in the clean-clone order, and only those", () => {
  const files = readdirSync(resolve(__dirname, "../e2e")).filter((name) => name.endsWith(".test.ts"));
  expect([...LONGEST].sort()).toEqual(files.sort());
});
