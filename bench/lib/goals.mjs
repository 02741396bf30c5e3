// Issue 28's goals beside the figures it measured on main before the work ("today"): each bench
// returns the rows it can judge (`goals` on one of its tables) and bench/run.mjs prints them
// together last. Goal numbers are the issue's.

/** One judged goal: what it is, the figure before, the figure now, now ÷ target, met. */
export function goal(name, before, now, ratio, met) {
  return [name, before, now, Number.isFinite(ratio) ? ratio.toFixed(2) : "", met ? "met" : "NOT MET"];
}

export const GOAL_COLUMNS = ["goal", "today (issue 28)", "now", "now ÷ target", "verdict"];
