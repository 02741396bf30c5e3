import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. Plain clsx, not tailwind-merge (~9 KB gzip on every page): callers must not
 * pass a utility that conflicts with a component's own (give the component a prop instead).
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
