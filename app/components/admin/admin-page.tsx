import type { ReactNode } from "react";
import { cn } from "~/components/ui/cn";
import type { PageInfo } from "~/content/pages";

/**
 * An admin page's frame: the column, its h1 and description from pages.ts, then the page's own
 * sections. A new admin page starts from it (docs/architecture.md, "A new admin page").
 */
export function AdminPage({ page, className, children }: { page: PageInfo; className?: string; children: ReactNode }) {
  return (
    <div className={cn("mx-auto max-w-5xl px-4 pb-16 pt-10", className)}>
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>
      {children}
    </div>
  );
}
