import type { ReactNode } from "react";
import { lazyModule } from "~/utils/lazy-module";
import { useHydrated } from "~/utils/use-hydrated";
import { useRootData } from "~/root-data";
import { ExitIntentPopup } from "./exit-intent-popup";
import { Footer } from "./footer";
import { TopHeader } from "./header";
import { DesktopSidebar } from "./sidebar";
import { SidebarProvider, useSidebar } from "./sidebar-context";
import { SIDEBAR_DEFAULT } from "./sidebar-state";
import { Toaster } from "./toaster";

// The key handler, its table and the easter eggs: fetched once React runs, not before the page.
const shortcuts = lazyModule(() => import("./keyboard-shortcuts"));

/**
 * The frame around every page: fixed header, floating sidebar, main content,
 * footer, toasts, keyboard shortcuts and the exit-intent popup. Everything is server-rendered;
 * the sidebar's desktop state comes from the sidebar_state cookie via the root loader.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  return (
    <SidebarProvider initialState={root?.sidebarState ?? SIDEBAR_DEFAULT}>
      <ShellFrame>{children}</ShellFrame>
      <DeferredShortcuts />
      <ExitIntentPopup />
      <Toaster flash={root?.flash} />
    </SidebarProvider>
  );
}

// Its own component, so the re-render at hydration stays here (a re-render reaching the footer's
// still-dehydrated form would make React client-render it).
function DeferredShortcuts() {
  const KeyboardShortcuts = shortcuts.useModule(useHydrated())?.default;
  return KeyboardShortcuts ? <KeyboardShortcuts /> : null;
}

function ShellFrame({ children }: { children: ReactNode }) {
  const { state } = useSidebar();
  return (
    <div className="shell flex min-h-dvh flex-col pt-14" data-sidebar-state={state}>
      <TopHeader />
      <DesktopSidebar />
      <div className="shell-content flex min-w-0 flex-1 flex-col">
        <main id="main-content" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
        <Footer />
      </div>
    </div>
  );
}
