import { ChevronDown, Mail, Menu, Network, PanelLeft, Phone, ShoppingBag, X } from "~/components/ui/icons.generated";
import { useEffect, useRef, useState } from "react";
import { cn } from "~/components/ui/cn";
import { NewTabLink } from "~/components/ui/new-tab-link";
import { lazyModule } from "~/utils/lazy-module";
import { useMediaQuery } from "~/utils/use-media-query";
import { useRootData } from "~/root-data";
import { Logo } from "./logo";
import { DESKTOP_QUERY, useSidebar } from "./sidebar-context";
import { WithTooltip } from "./with-tooltip";

/**
 * The fixed top header. From 768 px: the sidebar trigger, the centred logo and
 * the external store link. Below it, the second variant: the menu toggle (Open menu / Close
 * menu) for the off-canvas sidebar and the contact dropdown (call, e-mail, professional network,
 * store). Before hydration (and with JavaScript off) both menus are <details> disclosures.
 */
export function TopHeader() {
  const root = useRootData();
  const storeUrl = root?.storeUrl ?? "";
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-14 border-b border-border">
      {/* The blur sits on a layer of its own: a backdrop-filter on the header itself would make it
          the containing block of the no-JS menu's fixed panel, squeezing that panel to nothing. */}
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-background/90 backdrop-blur" />
      <div className="grid h-full grid-cols-[1fr_auto_1fr] items-center gap-2 px-3">
        <div className="flex items-center">
          <DesktopTrigger />
          <MobileMenu />
        </div>
        <Logo />
        <div className="flex items-center justify-end">
          <NewTabLink
            href={storeUrl}
            iconClassName="size-3.5"
            className="hidden items-center gap-2 rounded-md px-3 py-2 text-sm font-medium hover:bg-accent md:inline-flex"
          >
            <ShoppingBag aria-hidden="true" className="size-4" />
            Store
          </NewTabLink>
          <ContactMenu />
        </div>
      </div>
    </header>
  );
}

function DesktopTrigger() {
  const { state, toggle } = useSidebar();
  // The one tooltip outside the sidebar, so it keeps the default delay (700 ms). Only where the
  // trigger is shown: phones never fetch the tooltip code for it.
  const desktop = useMediaQuery(DESKTOP_QUERY);
  return (
    <WithTooltip label="Toggle sidebar" side="bottom" disabled={!desktop}>
      <button
        type="button"
        onClick={toggle}
        data-state={state}
        data-testid="sidebar-trigger"
        className="hidden rounded-md p-2 hover:bg-accent md:in-[.js]:inline-flex"
      >
        <PanelLeft aria-hidden="true" className="size-5" />
        <span className="sr-only">Toggle sidebar</span>
      </button>
    </WithTooltip>
  );
}

const summaryClass =
  "flex cursor-pointer list-none items-center gap-2 rounded-md p-2 hover:bg-accent [&::-webkit-details-marker]:hidden";

const sheet = lazyModule(() => import("./mobile-sidebar-sheet"));

function MobileMenu() {
  const { mobileOpen, setMobileOpen } = useSidebar();
  const [everOpened, setEverOpened] = useState(false);
  if (mobileOpen && !everOpened) setEverOpened(true);
  const MobileSidebarSheet = sheet.useModule(everOpened)?.default;
  return (
    <>
      {/* Like the desktop trigger, shown only where JavaScript runs (the "js" class on <html>,
          set before first paint): without it the button could do nothing. */}
      <button
        type="button"
        onClick={() => setMobileOpen(!mobileOpen)}
        aria-expanded={mobileOpen}
        className="hidden rounded-md p-2 hover:bg-accent in-[.js]:inline-flex md:hidden!"
      >
        {mobileOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
        <span className="sr-only">{mobileOpen ? "Close menu" : "Open menu"}</span>
      </button>
      {/* Without JavaScript (no "js" class on <html>): a disclosure whose opening shows the
          sidebar itself below the header (app/tailwind.css), not a second copy of it. */}
      <details className="group md:hidden in-[.js]:hidden" data-testid="mobile-menu-fallback" data-nojs-menu>
        <summary className={summaryClass}>
          <Menu aria-hidden="true" className="size-5 group-open:hidden" />
          <X aria-hidden="true" className="hidden size-5 group-open:block" />
          <span className="sr-only group-open:hidden">Open menu</span>
          <span className="sr-only hidden group-open:inline">Close menu</span>
        </summary>
      </details>
      {MobileSidebarSheet ? <MobileSidebarSheet /> : null}
    </>
  );
}

function useContactLinks() {
  const root = useRootData();
  if (!root) return [];
  return [
    { label: `Call ${root.contact.phone}`, href: `tel:${root.contact.phone}`, icon: Phone, external: false },
    { label: `Email ${root.contact.email}`, href: `mailto:${root.contact.email}`, icon: Mail, external: false },
    { label: "LinkedIn", href: root.linkedinUrl, icon: Network, external: true },
    { label: "Store", href: root.storeUrl, icon: ShoppingBag, external: true },
  ];
}

/**
 * The contact dropdown: a <details> disclosure, so it works without JavaScript; with it, Escape
 * and a click elsewhere close it, as a menu would.
 */
function ContactMenu() {
  const links = useContactLinks();
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (focusSummary: boolean) => {
      if (!details.open) return;
      details.open = false;
      if (focusSummary) details.querySelector("summary")?.focus();
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === "Escape" && details.open) {
        e.preventDefault();
        close(true);
      }
    };
    const onPointerDown = (e: PointerEvent) => {
      if (!details.contains(e.target as Node)) close(false);
    };
    details.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      details.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);
  return (
    <details ref={ref} className="group relative md:hidden" data-testid="contact-menu">
      <summary className={cn(summaryClass, "text-sm font-medium")}>
        {/* On the narrowest phones the word gives way to an icon, so the centred logo fits. */}
        <Phone aria-hidden="true" className="size-4 sm:hidden" />
        <span className="sr-only sm:not-sr-only">Contact</span>
        <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <ul className="absolute right-0 top-full z-50 mt-1 min-w-56 rounded-md border border-border bg-card p-1 shadow-lg">
        {links.map((l) => (
          <li key={l.label}>
            <a
              href={l.href}
              {...(l.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
              onClick={() => ref.current?.removeAttribute("open")}
              className="flex items-center gap-2 rounded-sm px-2 py-2 text-sm hover:bg-accent focus-visible:bg-accent"
            >
              <l.icon aria-hidden="true" className="size-4" />
              {l.label}
              {l.external ? <span className="sr-only">(opens in a new tab)</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
