import { Skeleton } from "~/components/ui/skeleton";

const SKELETON_ROWS = 5;

/** A streamed part's placeholder: the 5-row skeleton of docs/product.md. */
export function SkeletonRows() {
  return (
    <div className="grid gap-3" role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <Skeleton key={i} className="h-6" data-testid="skeleton-row" />
      ))}
    </div>
  );
}

/** A streamed part that failed; the rest of the page stays. */
export function LoadError() {
  return <p className="text-sm text-destructive">Could not load this part. Please reload the page.</p>;
}
