import { useSyncExternalStore } from "react";

/**
 * The "Keyboard shortcuts" switch: on by default (the product's shortcuts), "off" only when
 * localStorage.shortcuts says so, kept like the theme. Off, no key of ours is handled and every
 * key (Ctrl+F, Space, the arrows) is the browser's: the way out WCAG 2.1.4 asks of single-key
 * shortcuts. Settings and the shortcuts dialog both switch it through here.
 */
const KEY = "shortcuts";
const EVENT = "afx:shortcuts";
// Storage can be blocked: the choice then holds for this page.
let unstored: boolean | undefined;

export function shortcutsOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return unstored ?? true;
  }
}

export function setShortcutsOn(on: boolean): void {
  unstored = on;
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // Kept in `unstored` for this page.
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  // Another tab's switch.
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** Whether the shortcuts are on; on while server rendering (the default). */
export function useShortcutsOn(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, shortcutsOn, () => true);
  return [on, setShortcutsOn];
}
