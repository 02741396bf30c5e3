import { X } from "~/components/ui/icons.generated";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "~/components/ui/sheet";
import { SidebarBody } from "./sidebar";
import { useSidebar } from "./sidebar-context";

/** The sidebar as an off-canvas sheet under 768 px; loaded at the first 'Open menu'. */
export default function MobileSidebarSheet() {
  const { mobileOpen, setMobileOpen } = useSidebar();
  return (
    <Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
      <SheetContent className="w-[var(--sidebar-width-mobile)] max-w-[85vw]" data-testid="mobile-sidebar">
        {/* A row of its own: the close button never lies over the first field ('Quick find...'). */}
        <div className="flex items-center justify-between border-b border-border py-1 pl-3 pr-1">
          <SheetTitle className="text-sm font-semibold">Menu</SheetTitle>
          <button
            type="button"
            onClick={() => setMobileOpen(false)}
            className="rounded-md p-2 text-muted-foreground hover:bg-accent hover:text-foreground"
          >
            <X aria-hidden="true" className="size-4" />
            <span className="sr-only">Close menu</span>
          </button>
        </div>
        <SheetDescription className="sr-only">Site navigation</SheetDescription>
        <SidebarBody collapsed={false} onNavigate={() => setMobileOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}
