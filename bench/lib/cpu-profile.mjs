// Where a worker's CPU time goes (issue 28 goals 3 and 4): V8's sampling profiler, through the
// DevTools protocol of the worker's isolate (wrangler dev --inspector-port) or a .cpuprofile file
// (wrangler check startup), summed by function: self time, the share of all busy samples.
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
    // The bundle's text, to show the code at each sampled place (its names are minified).
    const sources = new Map();
    await cdp.send("Debugger.enable").catch(() => null);
    for (const id of new Set(
      profile.nodes.filter((n) => n.callFrame.url.endsWith(".js")).map((n) => n.callFrame.scriptId),
    )) {
      const text = await cdp.send("Debugger.getScriptSource", { scriptId: id }).catch(() => null);
      if (text) sources.set(id, text.scriptSource.split("\n"));
    }
    await cdp.send("Debugger.disable").catch(() => null);
    return { result, profile, sources };
  } finally {
    cdp.close();
  }
}

/** 60 characters of the script at a profile frame's position (names are minified), when known. */
export function describeFrame(frame, sources) {
  const line = frame && frame.lineNumber >= 0 ? sources?.get(frame.scriptId)?.[frame.lineNumber] : undefined;
  return line ? line.slice(frame.columnNumber, frame.columnNumber + 60).replaceAll("|", "\\|") : "";
}
