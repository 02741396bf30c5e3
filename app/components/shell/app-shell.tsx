import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { SITE } from "~/content/site";

/** The frame around every page. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-center px-4">
          <Link to="/" className="font-semibold tracking-tight">
            {SITE.name}
          </Link>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <footer className="border-t border-border py-6 text-center text-sm text-muted-foreground">
        © {SITE.copyrightYear} {SITE.name}. All rights reserved.
      </footer>
    </div>
  );
}
