import { forwardRef, type ButtonHTMLAttributes } from "react";
import { cn } from "~/components/ui/cn";

const VARIANTS = {
  primary: "btn btn-primary",
  outline: "btn btn-outline",
  destructive: "btn border border-destructive text-destructive hover:bg-accent",
} as const;

type ButtonVariant = keyof typeof VARIANTS;

/** The button look, for links that act as buttons (`<Link className={buttonClass("outline")}>`). */
export function buttonClass(variant: ButtonVariant = "primary", className?: string) {
  return cn(VARIANTS[variant], className);
}

/**
 * A button in one of the site's looks; `type="button"` unless told, so it never submits by accident.
 * Marked pure: the footer imports the signup form only for the server render, and a module-level
 * call the bundler must keep would drag the form into every page's JavaScript.
 */
export const Button = /* @__PURE__ */ forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }
>(function Button({ variant = "primary", className, type = "button", ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClass(variant, className)} {...props} />;
});
