import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "~/components/ui/icons.generated";
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef, type HTMLAttributes } from "react";
import { cn } from "./cn";

export const Dialog = DialogPrimitive.Root;
const DialogPortal = DialogPrimitive.Portal;

/**
 * The dim layer behind a modal dialog or sheet, mounted by the Portal while it is open. Not Radix's
 * Overlay: its scroll lock writes a <style> element, which the CSP refuses (no 'unsafe-inline',
 * docs/decisions/062-styles-by-hash.md); tailwind.css holds the page still while a `.dialog-overlay`
 * is in it. Radix turns pointer events off on <body> while a modal is open: this layer takes them
 * back, so a click on it is a click outside the dialog, which closes it.
 */
export const DialogOverlay = forwardRef<HTMLDivElement, { className?: string }>(({ className }, ref) => (
  <div
    ref={ref}
    className={cn("dialog-overlay pointer-events-auto fixed inset-0 z-50 bg-black/60 animate-fade-in", className)}
  />
));
DialogOverlay.displayName = "DialogOverlay";

export const DialogContent = forwardRef<
  ElementRef<typeof DialogPrimitive.Content>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & { closeLabel?: string; size?: "md" | "lg" }
>(({ className, children, closeLabel = "Close", size = "md", ...props }, ref) => (
  <DialogPortal>
    <DialogOverlay />
    <DialogPrimitive.Content
      ref={ref}
      className={cn(
        "fixed left-1/2 top-1/2 z-50 grid max-h-[90dvh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl animate-fade-in",
        size === "lg" ? "max-w-2xl" : "max-w-lg",
        className,
      )}
      {...props}
    >
      {children}
      <DialogPrimitive.Close className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-accent hover:text-foreground">
        <X aria-hidden="true" className="size-4" />
        <span className="sr-only">{closeLabel}</span>
      </DialogPrimitive.Close>
    </DialogPrimitive.Content>
  </DialogPortal>
));
DialogContent.displayName = "DialogContent";

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("flex flex-col gap-1.5 pr-6", className)} {...props} />;
}

export const DialogTitle = forwardRef<
  ElementRef<typeof DialogPrimitive.Title>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Title>
>(({ className, ...props }, ref) => (
  <DialogPrimitive.Title ref={ref} className={cn("text-lg font-semibold", className)} {...props} />
));
DialogTitle.displayName = "DialogTitle";

export const DialogDescription = forwardRef<
  ElementRef<typeof DialogPrimitive.Description>,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Description>
>(({ className, ...props }, ref) => (
  <DialogPrimitive.Description ref={ref} className={cn("text-sm text-muted-foreground", className)} {...props} />
));
DialogDescription.displayName = "DialogDescription";
