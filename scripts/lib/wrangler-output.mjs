// What `npm start` relays of wrangler dev's output: everything but its repeats and the runtime's
// stack dumps. wrangler prints its bindings table at every start and reload (five times in a
// session); workerd prints a native stack for a fetch whose host does not resolve (the blog's feed
// without a network), after which the app logs the failure itself in one line.

import { stripVTControlCharacters } from "node:util";

const TABLE_START = /^Your Worker has access to the following bindings:/;
const LOOKUP = /failed to lookup address information/;

/**
 * A line filter with memory: `push(line)` returns the lines to print for it (none, it, or a
 * one-line replacement).
 */
export function wranglerOutputFilter() {
  let tablesSeen = 0;
  let inTable = false;
  let afterLookup = false;
  return {
    /** @param {string} line @returns {string[]} */
    push(line) {
      const plain = stripVTControlCharacters(line);
      if (inTable) {
        if (plain.trim() === "") inTable = false;
        return tablesSeen > 1 ? [] : [line];
      }
      if (TABLE_START.test(plain)) {
        tablesSeen++;
        inTable = true;
        return tablesSeen > 1 ? [] : [line];
      }
      if (afterLookup) {
        // The native stack that follows, and the blank lines around it.
        if (plain.trim() === "" || /^\s*stack:/.test(plain)) return [];
        afterLookup = false;
      }
      if (LOOKUP.test(plain)) {
        afterLookup = true;
        return ["[worker] a fetch could not resolve its host (no network?): the app's own log line follows"];
      }
      return [line];
    },
  };
}

/** Relays `from` (a child's stdout or stderr) to `to` line by line through one filter. */
export function relayFiltered(from, to, filter = wranglerOutputFilter()) {
  let rest = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) for (const out of filter.push(line)) to.write(`${out}\n`);
  });
  from.on("end", () => {
    if (rest) for (const out of filter.push(rest)) to.write(`${out}\n`);
  });
}
