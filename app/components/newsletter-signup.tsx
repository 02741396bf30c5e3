/**
 * SPEC.md "Newsletter signup block": one component, three variants. Built in the newsletter
 * issue; this placeholder fixes its props so the footer, the blog and the exit popup can place it.
 */
export type NewsletterVariant = "compact" | "full" | "inline";

export function NewsletterSignup(_props: { variant: NewsletterVariant; source: string; className?: string }) {
  return null;
}
