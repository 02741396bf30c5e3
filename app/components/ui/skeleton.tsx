import type { HTMLAttributes } from "react";
import { cn } from "~/components/ui/cn";

/** A pulsing placeholder while streamed data arrives; its size comes from `className` (`h-6`, `w-24`). */
export function Skeleton({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("animate-pulse rounded bg-muted", className)} {...rest} />;
}
