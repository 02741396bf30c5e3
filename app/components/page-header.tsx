import type { ReactNode } from "react";

/** The h1 block at the top of a content page. */
export function PageHeader({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <header className="mx-auto max-w-6xl px-4 pb-6 pt-10">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{heading}</h1>
      {children ? <div className="mt-3 max-w-3xl text-muted-foreground">{children}</div> : null}
    </header>
  );
}
