import { create } from 'zustand';

export type ToastTone = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  detail: string | null;
  /** How many times this same toast was raised while shown: repeats are counted, not stacked. */
  count: number;
}

interface ToastStore {
  toasts: Toast[];
  push(tone: ToastTone, title: string, detail?: string | null): number;
  dismiss(id: number): void;
}

let nextId = 1;

/**
 * Messages about work that happened out of view. Oldest first; the Toaster shows the newest few and
 * the rest wait their turn, so an error is never dropped unseen.
 */
export const useToasts = create<ToastStore>()((set, get) => ({
  toasts: [],
  push(tone, title, detail = null) {
    const same = get().toasts.find((t) => t.tone === tone && t.title === title && t.detail === detail);
    if (same) {
      // A fresh id restarts a success toast's timer, so the repeat is seen for as long as the first.
      const repeated = { ...same, id: nextId++, count: same.count + 1 };
      set((s) => ({ toasts: [...s.toasts.filter((t) => t !== same), repeated] }));
      return repeated.id;
    }
    const toast: Toast = { id: nextId++, tone, title, detail, count: 1 };
    set((s) => ({ toasts: [...s.toasts, toast] }));
    return toast.id;
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Raises a toast from anywhere (a hook, a store, a module), not only from components. */
export const toast = {
  error: (title: string, detail?: string | null) => useToasts.getState().push('error', title, detail),
  success: (title: string, detail?: string | null) => useToasts.getState().push('success', title, detail),
  info: (title: string, detail?: string | null) => useToasts.getState().push('info', title, detail),
  dismiss: (id: number) => useToasts.getState().dismiss(id),
};
