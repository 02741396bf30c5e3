import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { SelectHTMLAttributes } from "react";
import { cn } from "~/components/ui/cn";

const CONTROL =
  "block h-10 rounded-md border border-border bg-background px-3 text-sm text-foreground aria-[invalid=true]:border-destructive";

/**
 * A native select in the inputs' look (the filter forms): it works without JavaScript and on every
 * device's own picker, which a custom listbox (shadcn/ui's Radix Select) would trade away.
 */
export function Select({
  wide = false,
  className,
  ...rest
}: { wide?: boolean } & SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(CONTROL, wide && "w-full", className)} {...rest} />;
}

/** A select bound to a conform field (an admin form's): name, id, its error wiring, full width. */
export function FieldSelect({
  field,
  className,
  ...rest
}: { field: FieldMetadata<string> } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "defaultValue">) {
  const { key, ...props } = getSelectProps(field);
  return <select key={key} {...props} {...rest} className={cn(CONTROL, "w-full", className)} />;
}
