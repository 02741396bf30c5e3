import { useSyncExternalStore } from "react";

/**
 * The colour theme: dark by default, "light" only when localStorage.theme
 * says so. root.tsx applies it before first paint; Ctrl/Cmd+Shift+T and the settings switch
 * change it through here.
 */
type Theme = "dark" | "light";
const EVENT = "afx:theme";

export function getTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function setTheme(theme: Theme): void {
  document.documentElement.classList.toggle("dark", theme === "dark");
  try {
    localStorage.setItem("theme", theme);
  } catch {
    // Storage can be blocked; the theme still changes for this page.
  }
  window.dispatchEvent(new Event(EVENT));
}

export function toggleTheme(): Theme {
  const next = getTheme() === "dark" ? "light" : "dark";
  setTheme(next);
  return next;
}

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  return () => window.removeEventListener(EVENT, onChange);
}

/** The current theme; "dark" while server rendering (the default). */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, getTheme, () => "dark" as const);
  return [theme, setTheme];
}
