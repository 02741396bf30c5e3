import { NewsletterSignup } from "~/features/leads/newsletter-signup";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { SITE } from "~/content/site";

/** The exit-intent popup's dialog; the logic is in exit-intent-popup.tsx. */
export default function ExitPopupDialog({
  open,
  onHide,
  onDontShowAgain,
}: {
  open: boolean;
  onHide: () => void;
  onDontShowAgain: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onHide())}>
      <DialogContent data-testid="exit-popup" aria-describedby="exit-popup-description">
        <DialogHeader>
          <DialogTitle className="text-2xl">Wait! Before you go...</DialogTitle>
          <DialogDescription id="exit-popup-description">
            Join {SITE.subscribersClaim} subscribers and get news from {SITE.name} and its ventures.
          </DialogDescription>
        </DialogHeader>
        <NewsletterSignup variant="full" source="popup" />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn btn-outline" onClick={onDontShowAgain}>
            Don't show this again
          </button>
          <button type="button" className="btn btn-primary" onClick={onHide}>
            Maybe later
          </button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
