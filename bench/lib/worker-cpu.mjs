// The workerd process that runs our worker under `wrangler dev`, and its CPU time so far (the
// leads, cpu-limit and at-size benches).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Milliseconds per clock tick of /proc/<pid>/stat (10 ms at 100 Hz). */
export const TICK_MS = 1000 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/**
 * The workerd process under `pid` (wrangler → workerd) that runs our worker and the local D1: the
 * one with an inspector. (wrangler dev starts a second workerd for its own proxy in front; its RSS
 * grows with every byte it relays, for any response, and it is not part of a deployment.)
 */
export function findWorkerd(pid) {
  const children = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/));
  for (const [child, command, ...args] of children) {
    if (command.endsWith("/workerd") && args.some((a) => a.startsWith("--inspector-addr"))) return Number(child);
    const found = findWorkerd(child);
    if (found) return found;
  }
  return null;
}

/** User + system CPU of a process so far, in ms (whole clock ticks). */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14 and 15)
}
