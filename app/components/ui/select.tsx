import type { SelectHTMLAttributes } from "react";
import { cn } from "~/components/ui/cn";

/**
 * A native select in the inputs' look (the filter forms): it works without JavaScript and on every
 * device's own picker, which a custom listbox (shadcn/ui's Radix Select) would trade away.
 */
export function Select({
  wide = false,
  className,
  ...rest
}: { wide?: boolean } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        "block h-10 rounded-md border border-border bg-background px-3 text-sm text-foreground",
        wide && "w-full",
        className,
      )}
      {...rest}
    />
  );
}
