/**
 * Client-side toasts: `toast({...})` from anywhere in the browser; the shell's
 * <Toaster> (Radix Toast) renders them, at most one at a time.
 */
export interface ToastMessage {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  /** Milliseconds; default 5000. */
  duration?: number;
}

export interface ShownToast extends ToastMessage {
  id: number;
}

type Listener = (toast: ShownToast) => void;
const listeners = new Set<Listener>();
let nextId = 1;

export function toast(message: ToastMessage): void {
  const shown = { ...message, id: nextId++ };
  for (const listener of listeners) listener(shown);
}

export function subscribeToToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
