// Where a worker's CPU time goes (issue 28 goals 3 and 4): V8's sampling profiler, through the
// DevTools protocol of the worker's isolate (wrangler dev --inspector-port) or a .cpuprofile file
// (wrangler check startup), summed by function: self time, the share of all busy samples.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { connectCdp, inspectorUrl } from "./cdp.mjs";

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

/** Self time by function in a V8 CPU profile ({ nodes, samples, timeDeltas }), busiest first. */
export function topFunctions(profile, { limit = 12 } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let busy = 0;
  let gc = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = node.callFrame;
    if (f.functionName === "(garbage collector)") gc += dt;
    if (IDLE.has(f.functionName) && f.functionName !== "(garbage collector)") return;
    busy += dt;
    const file = (f.url || "").replace(/^.*\//, "") || "(native)";
    const key = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    const entry = self.get(key) ?? { ms: 0, frame: f };
    entry.ms += dt;
    self.set(key, entry);
  });
  const top = [...self].sort((a, b) => b[1].ms - a[1].ms).slice(0, limit);
  return { busy, gc, top: top.map(([name, { ms, frame }]) => ({ name, ms, frame, share: ms / busy })) };
}

/** A CPU profile of the worker isolate while `run()` runs (sampling every `intervalUs`). */
export async function profileWorker(inspectorPort, run, { intervalUs = 100 } = {}) {
  const cdp = await connectCdp(await inspectorUrl(inspectorPort));
  try {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await cdp.send("Profiler.start");
    const result = await run();
    const { profile } = await cdp.send("Profiler.stop");
    return { result, profile };
  } finally {
    cdp.close();
  }
}

const sources = new Map();

/** 60 characters of the bundle at a profile frame's position (names are minified), when readable. */
export function describeFrame(frame) {
  if (!frame?.url || frame.lineNumber < 0) return "";
  const path = frame.url.startsWith("file:") ? fileURLToPath(frame.url) : frame.url.startsWith("/") ? frame.url : `/${frame.url}`;
  if (!sources.has(path)) sources.set(path, existsSync(path) ? readFileSync(path, "utf8").split("\n") : null);
  const line = sources.get(path)?.[frame.lineNumber];
  return line ? line.slice(frame.columnNumber, frame.columnNumber + 60).replaceAll("|", "\\|") : "";
}
