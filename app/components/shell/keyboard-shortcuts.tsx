import { useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useRootData } from "~/root-data";
import { lazyModule } from "~/utils/lazy-module";
import { shortcutsOn } from "~/utils/shortcuts-setting";
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
  shortcutsFor,
  type ShortcutAction,
} from "./shortcuts";
import { useSidebar } from "./sidebar-context";

const dialog = lazyModule(() => import("./shortcuts-dialog"));

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
  timers.set(
    name,
    window.setTimeout(() => root.classList.remove(name), ms),
  );
}

/**
 * Loaded right after hydration (app-shell.tsx), off the landing's critical path.
 * The global keyboard shortcuts and easter eggs (the table is in shortcuts.ts; Alt + 1 … 9 follow
 * the portfolio the root loader carries), and the shortcuts dialog (Space opens it, Escape closes
 * it). Nothing fires while the user types, and nothing at all while the "Keyboard shortcuts"
 * switch is off (utils/shortcuts-setting.ts).
 */
export default function KeyboardShortcuts() {
  const navigate = useNavigate();
  const sidebar = useSidebar();
  const ventures = useRootData()?.ventures;
  const shortcuts = useMemo(() => shortcutsFor(ventures ?? []), [ventures]);
  const [open, setOpen] = useState(false);
  const latest = useRef({ navigate, sidebar, shortcuts });
  latest.current = { navigate, sidebar, shortcuts };

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
      if (e.defaultPrevented || e.isComposing || isTyping(e.target) || !shortcutsOn()) return;
      const shortcut = matchShortcut(e, latest.current.shortcuts);
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
    // This module loads lazily after hydration: the attribute says the shortcuts now listen.
    document.documentElement.dataset.shortcuts = "on";
    return () => {
      delete document.documentElement.dataset.shortcuts;
      window.removeEventListener("keydown", onKeyDown);
      for (const t of timers.values()) window.clearTimeout(t);
    };
  }, []);

  const [everOpened, setEverOpened] = useState(false);
  if (open && !everOpened) setEverOpened(true);
  // Loaded at the first Space; stays mounted so Radix can return focus when it closes.
  const ShortcutsDialog = dialog.useModule(everOpened)?.default;
  return ShortcutsDialog ? <ShortcutsDialog open={open} onOpenChange={setOpen} /> : null;
}
