import { useEffect, useRef, useState } from "react";
import { NewsletterSignup } from "~/components/newsletter-signup";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { SITE } from "~/content/site";

/** SPEC.md "Exit-intent popup" and §4/§9. */
export const POPUP_DELAY_MS = 3000;
export const POPUP_DISMISSED_KEY = "afxPopupDismissed";

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

  useEffect(() => {
    if (dismissedForever() || hiddenThisVisit) return;
    const timer = window.setTimeout(() => (armed.current = true), POPUP_DELAY_MS);
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

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : hide())}>
      <DialogContent data-testid="exit-popup" aria-describedby="exit-popup-description">
        <DialogHeader>
          <DialogTitle className="text-2xl">Wait! Before you go...</DialogTitle>
          <DialogDescription id="exit-popup-description">
            Join {SITE.subscribersClaim} subscribers and get news from {SITE.name} and its ventures.
          </DialogDescription>
        </DialogHeader>
        <NewsletterSignup variant="full" source="popup" />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn btn-outline" onClick={dontShowAgain}>
            Don't show this again
          </button>
          <button type="button" className="btn btn-primary" onClick={hide}>
            Maybe later
          </button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
