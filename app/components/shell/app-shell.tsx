import type { ReactNode } from "react";
import { useRootData } from "~/utils/user";
import { ExitIntentPopup } from "./exit-intent-popup";
import { Footer } from "./footer";
import { TopHeader } from "./header";
import { KeyboardShortcuts } from "./keyboard-shortcuts";
import { DesktopSidebar } from "./sidebar";
import { SidebarProvider, useSidebar } from "./sidebar-context";
import { SIDEBAR_DEFAULT } from "./sidebar-state";
import { Toaster } from "./toaster";

/**
 * The frame around every page (SPEC.md "Shell"): fixed header, floating sidebar, main content,
 * footer, toasts, keyboard shortcuts and the exit-intent popup. Everything is server-rendered;
 * the sidebar's desktop state comes from the sidebar_state cookie via the root loader.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  return (
    <SidebarProvider initialState={root?.sidebarState ?? SIDEBAR_DEFAULT}>
        <ShellFrame>{children}</ShellFrame>
        <KeyboardShortcuts />
        <ExitIntentPopup />
        <Toaster flash={root?.flash} />
    </SidebarProvider>
  );
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
