import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toggleTheme } from "~/utils/theme";
import { toast } from "~/utils/toast";
import {
  KeySequence,
  KONAMI,
  KONAMI_TOAST,
  matchShortcut,
  RAINBOW,
  RAINBOW_MS,
  SHAKE_MS,
  SHORTCUTS,
  type ShortcutAction,
} from "./shortcuts";
import { useSidebar } from "./sidebar-context";

const FIELD = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";
// Space already means "press" on these; it opens the dialog only when nothing else wants it.
const SPACE_TAKERS = `${FIELD}, button, a[href], summary, [role='button'], [role='checkbox'], [role='switch'], [role='menuitem'], [role='option'], [role='tab']`;

function isTyping(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(FIELD) !== null;
}

/** Adds a class to <html> for `ms`; the CSS turns it off for prefers-reduced-motion. */
function flashClass(name: string, ms: number, timers: Map<string, number>) {
  const root = document.documentElement;
  window.clearTimeout(timers.get(name));
  root.classList.remove(name);
  void root.offsetWidth; // restart the animation when it is already running
  root.classList.add(name);
  timers.set(name, window.setTimeout(() => root.classList.remove(name), ms));
}

/**
 * The global keyboard shortcuts and easter eggs of SPEC.md "Keyboard shortcuts", and the
 * shortcuts dialog (Space opens it, Escape closes it). Nothing fires while the user types.
 */
export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const sidebar = useSidebar();
  const [open, setOpen] = useState(false);
  const latest = useRef({ navigate, sidebar });
  latest.current = { navigate, sidebar };

  useEffect(() => {
    const konami = new KeySequence(KONAMI);
    const rainbow = new KeySequence(RAINBOW);
    const timers = new Map<string, number>();

    function run(action: ShortcutAction) {
      const { navigate, sidebar } = latest.current;
      switch (action.type) {
        case "navigate":
          return navigate(action.to);
        case "focus-search":
          return sidebar.focusSearch();
        case "toggle-sidebar":
          return sidebar.toggle();
        case "toggle-theme":
          return void toggleTheme();
        case "toast":
          return toast({ title: action.title, description: action.description });
        case "open-shortcuts":
          return setOpen(true);
      }
    }

    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || e.isComposing || isTyping(e.target)) return;
      const shortcut = matchShortcut(e);
      if (shortcut && !(shortcut.key === " " && e.target instanceof Element && e.target.closest(SPACE_TAKERS))) {
        e.preventDefault();
        run(shortcut.action);
        return;
      }
      if (["Shift", "Control", "Alt", "Meta"].includes(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (konami.push(e.key)) {
        toast(KONAMI_TOAST);
        flashClass("shake", SHAKE_MS, timers);
      }
      if (rainbow.push(e.key)) flashClass("rainbow", RAINBOW_MS, timers);
    }

    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      for (const t of timers.values()) window.clearTimeout(t);
    };
  }, []);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-w-xl" data-testid="shortcuts-dialog">
        <DialogHeader>
          <DialogTitle>Keyboard Shortcuts</DialogTitle>
          <DialogDescription>Press Space to open this list and Escape to close it. Shortcuts pause while you type.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="contents">
              <dt>
                <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">{s.keys}</kbd>
              </dt>
              <dd className="text-muted-foreground">{s.label}</dd>
            </div>
          ))}
          <div className="contents">
            <dt>
              <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">Escape</kbd>
            </dt>
            <dd className="text-muted-foreground">Close this dialog</dd>
          </div>
        </dl>
      </DialogContent>
    </Dialog>
  );
}
