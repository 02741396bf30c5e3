/**
 * The viewer's clock of page times (docs/decisions/116), apart from the DOM so a unit test can
 * drive it with its own time. A page's time runs while the tab is visible and the reader has
 * given some input (a key, a pointer, a scroll) in the last minute; it is reported at least every
 * 10 s while it runs, never while the tab is hidden or idle, and one last time on `pagehide`.
 */
import type { PageSeconds } from "./plausibility";

/** How often a running clock reports. */
export const REPORT_EVERY_MS = 10_000;
/** Input-free time after which a page's time stops running (and no report is sent). */
export const IDLE_AFTER_MS = 60_000;

export interface ReadingClockOptions {
  now: () => number;
  /** Sends one report; `last` for the one on `pagehide`. */
  send: (pages: PageSeconds[], last: boolean) => void;
}

export class ReadingClock {
  private page = 1;
  private visible = true;
  private lastInput: number;
  /** Where the running stretch began (ms), or null while the clock stands. */
  private since: number | null;
  private lastSent: number;
  private pending = new Map<number, number>();
  private ended = false;

  constructor(private readonly options: ReadingClockOptions) {
    const now = options.now();
    this.lastInput = now;
    this.since = now;
    this.lastSent = now;
  }

  /** Adds the running stretch to its page, up to the moment the reader went idle. */
  private settle(now: number) {
    if (this.since === null) return;
    const end = Math.min(now, this.lastInput + IDLE_AFTER_MS);
    if (end > this.since) this.pending.set(this.page, (this.pending.get(this.page) ?? 0) + (end - this.since));
    this.since = this.visible && now < this.lastInput + IDLE_AFTER_MS ? now : null;
  }

  private flush(last: boolean) {
    const pages = [...this.pending]
      .filter(([, ms]) => ms >= 100)
      .map(([page, ms]) => ({ page, seconds: Math.round(ms / 100) / 10 }));
    this.pending.clear();
    this.lastSent = this.options.now();
    if (pages.length) this.options.send(pages, last);
  }

  /** The reader turned to another page. */
  setPage(page: number) {
    if (this.ended || page === this.page) return;
    this.input();
    this.settle(this.options.now());
    this.page = page;
  }

  /** The tab was shown or hidden (`visibilitychange`); hiding reports what ran until then. */
  setVisible(visible: boolean) {
    if (this.ended || visible === this.visible) return;
    const now = this.options.now();
    this.settle(now);
    this.visible = visible;
    if (visible) {
      this.lastInput = now;
      this.since = now;
    } else {
      this.since = null;
      this.flush(false);
    }
  }

  /** Any input from the reader: a running clock stays running, an idle one starts again. */
  input() {
    if (this.ended) return;
    const now = this.options.now();
    if (this.since === null && this.visible) {
      this.since = now;
    }
    this.lastInput = now;
  }

  /** Called about once a second: reports when 10 s have passed since the last report. */
  tick() {
    if (this.ended) return;
    const now = this.options.now();
    this.settle(now);
    // An idle or hidden clock has nothing pending after its one report, so it sends nothing.
    if (now - this.lastSent >= REPORT_EVERY_MS) this.flush(false);
  }

  /** `pagehide`: the last report; the clock stops for good. */
  end() {
    if (this.ended) return;
    this.settle(this.options.now());
    this.flush(true);
    this.ended = true;
  }
}
