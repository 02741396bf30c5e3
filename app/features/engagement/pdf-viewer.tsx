/**
 * A room document's viewer (docs/decisions/116): Mozilla's PDF.js renders one page at a time on a
 * canvas, with "Previous page" and "Next page" (and the arrow keys). PDF.js is imported only when
 * the viewer mounts, so it is a chunk of its own that only room viewer pages fetch; its worker is
 * a static file of the build. Without JavaScript (or until PDF.js is ready, or if it fails) the
 * page offers the copy itself, which the browser's own viewer opens. For a reader who agreed to
 * it, a ReadingClock reports each page's visible seconds with `navigator.sendBeacon`.
 */
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/utils/use-hydrated";
import { ReadingClock } from "./reading-clock";
import { loadPdfjs } from "./load-pdfjs.client";

type PdfDocument = import("pdfjs-dist").PDFDocumentProxy;

export interface PdfViewerProps {
  /** The copy's URL (inline, same origin). */
  src: string;
  title: string;
  /** Where page times go, and the reading they belong to; null when the reader declined. */
  reading: { url: string; id: string } | null;
}

const FIELD = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";

export function PdfViewer({ src, title, reading }: PdfViewerProps) {
  const hydrated = useHydrated();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [pdf, setPdf] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const clock = useRef<ReadingClock | null>(null);

  // Load PDF.js and the document once.
  useEffect(() => {
    let cancelled = false;
    let task: { destroy: () => Promise<void> } | null = null;
    (async () => {
      const pdfjs = await loadPdfjs();
      const loading = pdfjs.getDocument({ url: src });
      task = loading;
      if (cancelled) return void loading.destroy();
      const loaded = await loading.promise;
      if (!cancelled) setPdf(loaded);
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [src]);

  // Draw the current page.
  useEffect(() => {
    if (!pdf || !canvas.current) return;
    let task: ReturnType<Awaited<ReturnType<PdfDocument["getPage"]>>["render"]> | null = null;
    let cancelled = false;
    void pdf.getPage(page).then((p) => {
      if (cancelled || !canvas.current) return;
      const ratio = window.devicePixelRatio || 1;
      const base = p.getViewport({ scale: 1 });
      const width = Math.min(canvas.current.parentElement?.clientWidth || base.width, 1200);
      const viewport = p.getViewport({ scale: (width / base.width) * ratio });
      canvas.current.width = Math.floor(viewport.width);
      canvas.current.height = Math.floor(viewport.height);
      task = p.render({ canvas: canvas.current, viewport });
      task.promise.catch(() => {});
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, page]);

  // The reading clock, for a reader who agreed to it.
  useEffect(() => {
    if (!pdf || !reading) return;
    const send = (pages: { page: number; seconds: number }[]) => {
      const body = new Blob([JSON.stringify({ reading: reading.id, pages })], { type: "application/json" });
      navigator.sendBeacon(reading.url, body);
    };
    const c = new ReadingClock({ now: () => Date.now(), send });
    clock.current = c;
    if (document.visibilityState === "hidden") c.setVisible(false);
    const timer = window.setInterval(() => c.tick(), 1000);
    const onVisibility = () => c.setVisible(document.visibilityState === "visible");
    const onInput = () => c.input();
    const onHide = () => c.end();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onHide);
    const inputs = ["keydown", "pointerdown", "pointermove", "wheel", "scroll", "touchstart"] as const;
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    return () => {
      c.end();
      clock.current = null;
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onHide);
      for (const name of inputs) window.removeEventListener(name, onInput);
    };
  }, [pdf, reading]);

  const pages = pdf?.numPages ?? 0;
  const go = (next: number) => {
    if (next < 1 || next > pages) return;
    setPage(next);
    clock.current?.setPage(next);
  };

  // The arrow keys turn pages, unless the reader is typing somewhere.
  useEffect(() => {
    if (!pdf) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.target instanceof Element && e.target.closest(FIELD)) return;
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        setPage((current) => {
          const next = Math.min(pdf.numPages, Math.max(1, current + (e.key === "ArrowRight" ? 1 : -1)));
          clock.current?.setPage(next);
          return next;
        });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [pdf]);

  const ready = hydrated && pdf && !failed;
  return (
    <section
      aria-label={`${title}: viewer`}
      className="space-y-3"
      data-testid="pdf-viewer"
      data-ready={ready ? "" : undefined}
    >
      {ready ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" onClick={() => go(page - 1)} disabled={page <= 1}>
              Previous page
            </Button>
            <Button variant="outline" onClick={() => go(page + 1)} disabled={page >= pages}>
              Next page
            </Button>
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="pdf-page">
              Page {page} of {pages}
            </p>
          </div>
          <div className="overflow-hidden rounded-md border bg-white">
            <canvas
              ref={canvas}
              className="block h-auto w-full"
              role="img"
              aria-label={`${title}, page ${page} of ${pages}`}
            />
          </div>
        </>
      ) : (
        <p className="text-sm">
          {failed ? "The viewer could not show this document here. " : null}
          <a href={src} className="link">
            Open the copy
          </a>{" "}
          in your browser&rsquo;s own viewer.
        </p>
      )}
    </section>
  );
}
