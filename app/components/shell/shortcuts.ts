import type { PagePath } from "~/content/pages";
import type { Venture } from "~/content/ventures";

/**
 * The keyboard shortcuts: one table (`shortcutsFor`) that the key handler and the shortcuts dialog
 * both read, plus the pure matching logic (no DOM) so it can be unit-tested.
 */
export type ShortcutAction =
  | { type: "navigate"; to: string }
  | { type: "focus-search" }
  | { type: "toggle-sidebar" }
  | { type: "toggle-theme" }
  | { type: "toast"; title: string; description: string }
  | { type: "open-shortcuts" };

export interface Shortcut {
  /** What the dialog shows, e.g. "Ctrl/⌘ + Shift + T". */
  keys: string;
  label: string;
  /** "mod" is Ctrl, or ⌘ on Apple keyboards. */
  mod?: boolean;
  ctrl?: boolean;
  shift?: boolean;
  alt?: boolean;
  /** Lower-case letter, digit or key name. */
  key: string;
  action: ShortcutAction;
}

const MOD = "Ctrl/⌘";
const go = (to: string): ShortcutAction => ({ type: "navigate", to });
const nav = (key: string, label: string, to: PagePath): Shortcut => ({
  keys: `${MOD} + ${key.toUpperCase()}`,
  label,
  mod: true,
  key,
  action: go(to),
});
const navShift = (key: string, label: string, to: PagePath): Shortcut => ({
  keys: `${MOD} + Shift + ${key.toUpperCase()}`,
  label,
  mod: true,
  shift: true,
  key,
  action: go(to),
});

export const DEVELOPER_TOAST = { title: "Developer Mode", description: "Developer mode activated. Happy hacking!" };
export const GOD_MODE_TOAST = { title: "God Mode", description: "God mode activated. With great power…" };
export const KONAMI_TOAST = { title: "Konami Code!", description: "↑ ↑ ↓ ↓ ← → ← → B A: you found the secret." };

const BEFORE_VENTURES: readonly Shortcut[] = [
  nav("h", "Home", "/"),
  nav("p", "Portfolio", "/portfolio"),
  nav("i", "Investors", "/investors"),
  nav("f", "Funding", "/funding"),
  nav("s", "Store", "/store"),
  nav("l", "Legal", "/legal"),
  nav("n", "Notifications", "/notifications"),
  { keys: `${MOD} + K`, label: "Quick find", mod: true, key: "k", action: { type: "focus-search" } },
  { keys: `${MOD} + B`, label: "Toggle sidebar", mod: true, key: "b", action: { type: "toggle-sidebar" } },
  navShift("s", "Settings", "/settings"),
  navShift("h", "Help", "/help"),
  {
    keys: `${MOD} + Shift + T`,
    label: "Toggle theme",
    mod: true,
    shift: true,
    key: "t",
    action: { type: "toggle-theme" },
  },
  {
    keys: `${MOD} + Shift + D`,
    label: "Developer mode",
    mod: true,
    shift: true,
    key: "d",
    action: { type: "toast", ...DEVELOPER_TOAST },
  },
];

const AFTER_VENTURES: readonly Shortcut[] = [
  {
    keys: "Ctrl + Shift + Alt + G",
    label: "God mode",
    ctrl: true,
    shift: true,
    alt: true,
    key: "g",
    action: { type: "toast", ...GOD_MODE_TOAST },
  },
  { keys: "Space", label: "Show keyboard shortcuts", key: " ", action: { type: "open-shortcuts" } },
];

/** Alt + 1 … 9 go to the first nine of these ventures, in this order. */
const VENTURE_KEYS = 9;

const ventureShortcut = (s: Pick<Venture, "id" | "name">, i: number): Shortcut => ({
  keys: `Alt + ${i + 1}`,
  label: s.name,
  alt: true,
  key: String(i + 1),
  action: go(`/subsidiary/${s.id}`),
});

/**
 * THE table of shortcuts, for the portfolio as the root loader carries it (`useRootData().ventures`:
 * the shown ventures in the admin's order), so Alt + N follows a hidden or moved venture.
 */
export function shortcutsFor(ventures: readonly Pick<Venture, "id" | "name">[]): readonly Shortcut[] {
  return [...BEFORE_VENTURES, ...ventures.slice(0, VENTURE_KEYS).map(ventureShortcut), ...AFTER_VENTURES];
}

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The layout-independent key: Alt and Shift change `key` (Alt+1 is "¡" on a Mac), not `code`. */
export function normalizedKey(e: Pick<KeyLike, "key" | "code">): string {
  if (/^Key[A-Z]$/.test(e.code)) return e.code.slice(3).toLowerCase();
  if (/^Digit[0-9]$/.test(e.code)) return e.code.slice(5);
  return e.key.length === 1 ? e.key.toLowerCase() : e.key;
}

export function matchShortcut(e: KeyLike, shortcuts: readonly Shortcut[]): Shortcut | undefined {
  const key = normalizedKey(e);
  return shortcuts.find((s) => {
    if (s.key !== key) return false;
    const wantCtrl = Boolean(s.ctrl);
    const modPressed = e.ctrlKey || e.metaKey;
    if (s.mod) {
      if (!modPressed) return false;
    } else if (wantCtrl !== e.ctrlKey || e.metaKey) {
      return false;
    }
    return Boolean(s.shift) === e.shiftKey && Boolean(s.alt) === e.altKey;
  });
}

/**
 * Key sequences (the Konami code, typing "rainbow"): feed each key; a wrong key resets the
 * sequence (and counts as its first key when it is one).
 */
export class KeySequence {
  private position = 0;
  constructor(private readonly sequence: readonly string[]) {}
  /** Returns true when this key completes the sequence. */
  push(key: string): boolean {
    const k = key.length === 1 ? key.toLowerCase() : key;
    if (k === this.sequence[this.position]) this.position++;
    else this.position = k === this.sequence[0] ? 1 : 0;
    if (this.position === this.sequence.length) {
      this.position = 0;
      return true;
    }
    return false;
  }
}

export const KONAMI = [
  "ArrowUp",
  "ArrowUp",
  "ArrowDown",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "ArrowLeft",
  "ArrowRight",
  "b",
  "a",
];
export const RAINBOW = [..."rainbow"];
export const RAINBOW_MS = 10_000;
export const SHAKE_MS = 500;
