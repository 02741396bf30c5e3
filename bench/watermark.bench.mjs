// node bench/watermark.bench.mjs: the investor room's watermark (docs/decisions/113) on a
// 50-page, 20 MiB deck: the CPU time and memory of stamping one investor's copy with the same
// code the worker runs (app/features/rooms/watermark.ts, pdf-lib), in Node's V8 (the engine
// workerd runs too). The deck: 50 pages, each with 400 KiB of incompressible image data.
import { randomBytes } from "node:crypto";
import { PDFDocument, PDFName } from "pdf-lib";
import { watermarkPdf } from "../app/features/rooms/watermark.ts";

const MiB = 1024 * 1024;
const PAGES = 50;

async function deck() {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < PAGES; i++) {
    const page = pdf.addPage([960, 540]);
    const image = pdf.context.stream(randomBytes((20 * MiB) / PAGES), {
      Type: "XObject",
      Subtype: "Image",
      Width: 320,
      Height: 427,
      ColorSpace: "DeviceRGB",
      BitsPerComponent: 8,
    });
    const ref = pdf.context.register(image);
    page.node.setXObject(PDFName.of(`Im${i}`), ref);
    page.drawText(`Slide ${i + 1}`, { x: 40, y: 480, size: 28 });
  }
  return pdf.save();
}

const bytes = await deck();
const runs = [];
for (let run = 0; run < 3; run++) {
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = 0;
  const sampler = setInterval(
    () => (peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers)),
    5,
  );
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = await watermarkPdf(bytes, "investor@fund.example", "2026-12-02");
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers);
  runs.push({
    wall,
    cpu: (used.user + used.system) / 1000,
    peakMiB: (peak - heapBefore) / MiB,
    outMiB: out.byteLength / MiB,
  });
}
console.log(`deck: ${PAGES} pages, ${(bytes.byteLength / MiB).toFixed(1)} MiB`);
for (const [i, r] of runs.entries())
  console.log(
    `run ${i + 1}: wall ${r.wall.toFixed(0)} ms, CPU ${r.cpu.toFixed(0)} ms, peak memory above idle ${r.peakMiB.toFixed(0)} MiB, copy ${r.outMiB.toFixed(1)} MiB`,
  );
