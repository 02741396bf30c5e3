/**
 * PDF.js for the room's viewer, in the browser only: a `.client` module is empty in the server
 * build, so Mozilla's library (and its worker's URL) never join the worker's bundle.
 */
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";

export async function loadPdfjs() {
  const pdfjs = await import("pdfjs-dist");
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}
