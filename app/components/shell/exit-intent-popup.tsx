import { useEffect, useRef, useState } from "react";
import { lazyModule } from "~/utils/lazy-module";

// The dialog (Radix, the full signup form) loads when the popup arms, before it can open.
const dialog = lazyModule(() => import("./exit-popup-dialog"));

/**
 * The exit-intent popup: armed 3 s after load, opened when the pointer leaves through the top
 * edge of the window; once hidden it stays away for the visit, or for good with 'Don't show again'.
 */
const POPUP_DELAY_MS = 3000;
const POPUP_DISMISSED_KEY = "afxPopupDismissed";

function dismissedForever(): boolean {
  try {
    return localStorage.getItem(POPUP_DISMISSED_KEY) === "true";
  } catch {
    return false;
  }
}

// 'Maybe later' and the close button only hide the popup: it stays away for the rest of this
// visit (client navigations included) and may come back on a later visit.
let hiddenThisVisit = false;

export function ExitIntentPopup() {
  const [open, setOpen] = useState(false);
  const armed = useRef(false);
  const everOpened = useRef(false);
  if (open) everOpened.current = true;

  useEffect(() => {
    if (dismissedForever() || hiddenThisVisit) return;
    const timer = window.setTimeout(() => {
      armed.current = true;
      dialog.load().catch(() => undefined);
    }, POPUP_DELAY_MS);
    function onMouseOut(e: MouseEvent) {
      // Leaving the window (no element to go to) through its top edge.
      if (!armed.current || e.relatedTarget !== null || e.clientY > 0) return;
      if (dismissedForever() || hiddenThisVisit) return;
      armed.current = false;
      setOpen(true);
    }
    document.addEventListener("mouseout", onMouseOut);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener("mouseout", onMouseOut);
    };
  }, []);

  function hide() {
    hiddenThisVisit = true;
    setOpen(false);
  }

  function dontShowAgain() {
    try {
      localStorage.setItem(POPUP_DISMISSED_KEY, "true");
    } catch {
      // Storage blocked: it still stays hidden for this visit.
    }
    hide();
  }

  const ExitPopupDialog = dialog.useModule(open || everOpened.current)?.default;
  return ExitPopupDialog ? <ExitPopupDialog open={open} onHide={hide} onDontShowAgain={dontShowAgain} /> : null;
}
