/**
 * Where one request's time went, read in the browser's DevTools (Network, Timing): every loader and
 * action of a render becomes a `Server-Timing` entry, after the worker's own
 * `worker;dur=…;desc="hit|miss|bypass"` (worker/server.ts). Entries name a phase and the route it
 * ran (`loader;desc="routes/settings"`), never a value. D1 statements are timed too, but they name
 * what a request did with the data (a signup of a new address inserts a lead, one of a suppressed
 * address does not: docs/decisions/019-personal-data.md), so they reach the header only where
 * SERVER_TIMING_DETAIL is "on" (a local debugging switch, off unless set); everywhere else they go
 * to the slow-query log alone (app/utils/d1-session.server.ts).
 */
/** Bounds the header and the list a long-running response (a CSV streaming its pages) keeps. */
const MAX_ENTRIES = 60;

export type Phase = "loader" | "action" | "d1";

interface Entry {
  phase: Phase;
  desc: string;
  ms: number;
}

export class Timings {
  readonly #entries: Entry[] = [];

  /** The request's id for log lines (its `cf-ray`), when it has one. */
  constructor(readonly requestId?: string) {}

  add(phase: Phase, desc: string, ms: number): void {
    if (this.#entries.length < MAX_ENTRIES) this.#entries.push({ phase, desc, ms });
  }

  /**
   * Runs `run` and records how long it took, whether it resolved or threw (a redirect, a 404);
   * `after` then sees the duration.
   */
  async time<T>(phase: Phase, desc: string, run: () => Promise<T> | T, after?: (ms: number) => void): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      const ms = performance.now() - started;
      this.add(phase, desc, ms);
      after?.(ms);
    }
  }

  /**
   * The entries as `Server-Timing` metrics, in the order they ended: the phases (loaders,
   * actions), and the D1 statements only with `statements` (SERVER_TIMING_DETAIL).
   */
  header({ statements = false }: { statements?: boolean } = {}): string {
    return this.#entries
      .filter(({ phase }) => statements || phase !== "d1")
      .map(({ phase, desc, ms }) => serverTiming(phase, ms, desc))
      .join(", ");
  }
}

/** One `Server-Timing` metric; the description is a quoted string (route ids carry `/` and `$`). */
export function serverTiming(name: string, ms: number, desc: string): string {
  return `${name};dur=${ms.toFixed(2)};desc=${JSON.stringify(desc)}`;
}

/**
 * A statement's name for timings and log lines: its verb and first table (`select leads`,
 * `insert audit_log`), never its text. Values are bound parameters (docs/decisions/024-data-layer.md),
 * so the text holds none anyway, but a name is what one searches for.
 */
export function statementName(query: string): string {
  const text = query.trimStart().toLowerCase();
  const verb = /^[a-z]+/.exec(text)?.[0] ?? "sql";
  const table = /\b(?:from|into|update)\s+["`[]?([a-z_][a-z0-9_]*)/.exec(text)?.[1];
  return table ? `${verb} ${table}` : verb;
}
