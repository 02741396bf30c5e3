// node bench/documents.bench.mjs: the document library at its size limit (issue 44). The built
// worker under wrangler dev (React's production build), an admin uploading a DOCUMENT_MAX_BYTES
// PDF as a browser's multipart POST, then a visitor downloading it: each one's wall time, and the
// worker isolate's JS heap in use (sampled every 20 ms over the inspector) and bytes allocated
// while it runs. Needs `npm run build` first.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDevVars, localVars } from "../scripts/lib/config.mjs";
import { freePort, migrate } from "../scripts/lib/local-worker.mjs";
import { allocatedDuring, connectCdp, inspectorUrl, liveHeap } from "./lib/cdp.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";

const MAX = Number(process.env.DOCUMENT_MAX_BYTES ?? localVars().DOCUMENT_MAX_BYTES);
const MiB = 1024 * 1024;

function pdf(size) {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write("%PDF-1.7\n", 0);
  bytes.write("\n%%EOF\n", size - 7);
  return bytes;
}

/** The resident memory of the workerd processes under `pid` (wrangler's), in bytes (Linux /proc). */
function workerdRss(pid) {
  const children = new Map();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let rss = 0;
  const visit = (p) => {
    for (const child of children.get(p) ?? []) {
      try {
        const status = readFileSync(`/proc/${child}/status`, "utf8");
        if (/^Name:\s*workerd/m.test(status)) rss += Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
      } catch {
        // gone meanwhile
      }
      visit(child);
    }
  };
  visit(pid);
  return rss;
}

/**
 * While `run` runs: the isolate's JS heap in use at its peak (sampled every 20 ms), bytes it
 * allocated (V8's sampling profiler: JS objects; ArrayBuffer contents are outside the JS heap),
 * and the workerd processes' resident memory at its peak.
 */
async function measured(cdp, pid, run) {
  let peak = (await cdp.send("Runtime.getHeapUsage")).usedSize;
  const rssBefore = workerdRss(pid);
  let rssPeak = rssBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await cdp.send("Runtime.getHeapUsage")).usedSize);
      rssPeak = Math.max(rssPeak, workerdRss(pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  const { result, bytes: allocated } = await allocatedDuring(cdp, run);
  const ms = performance.now() - started;
  sampling = false;
  await sampler;
  return { ms, peak, allocated, rssBefore, rssPeak, result };
}

ensureDevVars();
const persistTo = mkdtempSync(join(tmpdir(), "afx-documents-bench-"));
migrate(persistTo);
const fixtures = await benchFixtures({ persistTo, leads: 0 });
const inspectorPort = await freePort();
const worker = await startBenchWorker({ persistTo, fixtures, inspectorPort });
try {
  const cookie = await fixtures.adminCookie(worker.url);
  const cdp = await connectCdp(await inspectorUrl(inspectorPort));
  const idle = (await liveHeap(cdp)).usedSize;
  const file = pdf(MAX);
  const form = new FormData();
  form.append("title", "Size-limit report");
  form.append("category", "Reports");
  form.append("visibility", "public");
  form.append("publish", "on");
  form.append("file", new Blob([file], { type: "application/pdf" }), "limit.pdf");
  const upload = await measured(cdp, worker.child.pid, async () => {
    const res = await fetch(`${worker.url}/admin/documents`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { Cookie: cookie, Origin: worker.url },
    });
    await res.arrayBuffer();
    if (res.status !== 303) throw new Error(`upload answered ${res.status}`);
    return new URL(res.headers.get("location"), worker.url).pathname;
  });
  const page = await (await fetch(`${worker.url}/documents`)).text();
  const path = page.match(/href="(\/documents\/[\w-]{12}\/size-limit-report\.pdf)"/)?.[1];
  if (!path) throw new Error("the uploaded document is not on /documents");
  const download = await measured(cdp, worker.child.pid, async () => {
    const res = await fetch(`${worker.url}${path}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!bytes.equals(file)) throw new Error("the download differs from the upload");
    return bytes.length;
  });
  const mib = (n) => `${(n / MiB).toFixed(1)} MiB`;
  console.log(`Document at the limit: ${mib(MAX)} (${MAX} bytes); worker heap idle ${mib(idle)} (live)`);
  for (const [name, m] of [
    ["upload (multipart POST, streamed to R2)", upload],
    ["download (streamed from R2)", download],
  ]) {
    console.log(
      `${name}: ${(m.ms / 1000).toFixed(2)} s (${(MAX / MiB / (m.ms / 1000)).toFixed(0)} MiB/s); isolate JS heap peak ${mib(m.peak)} (+${mib(m.peak - idle)} over idle), JS allocated ${mib(m.allocated)}; workerd RSS ${mib(m.rssBefore)} → peak ${mib(m.rssPeak)} (+${mib(m.rssPeak - m.rssBefore)})`,
    );
  }
  cdp.close();
} finally {
  await worker.stop();
  await fixtures.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
