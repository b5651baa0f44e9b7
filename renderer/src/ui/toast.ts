import { create } from 'zustand';

export type ToastTone = 'error' | 'success' | 'info';

/** A link to where the thing the toast is about can be seen, e.g. the dataset of a failed file. */
export interface ToastLink {
  label: string;
  href: string;
}

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  detail: string | null;
  link: ToastLink | null;
  /** How many times this same toast was raised while shown: repeats are counted, not stacked. */
  count: number;
}

interface ToastStore {
  toasts: Toast[];
  push(tone: ToastTone, title: string, detail?: string | null, link?: ToastLink | null): number;
  dismiss(id: number): void;
}

/** More would hide the page; the others wait until one is dismissed. */
export const MAX_VISIBLE = 4;

/** The toasts on screen: the newest few, oldest of them first. */
export function visibleToasts(toasts: readonly Toast[]): readonly Toast[] {
  return toasts.slice(-MAX_VISIBLE);
}

let nextId = 1;

/**
 * Messages about work that happened out of view. Oldest first; the Toaster shows the newest few and
 * the rest wait their turn, so an error is never dropped unseen.
 */
export const useToasts = create<ToastStore>()((set, get) => ({
  toasts: [],
  push(tone, title, detail = null, link = null) {
    const same = get().toasts.find((t) => t.tone === tone && t.title === title && t.detail === detail);
    if (same) {
      // A fresh id restarts a success toast's timer, so the repeat is seen for as long as the first.
      const repeated = { ...same, id: nextId++, count: same.count + 1 };
      set((s) => ({ toasts: [...s.toasts.filter((t) => t !== same), repeated] }));
      return repeated.id;
    }
    const toast: Toast = { id: nextId++, tone, title, detail, link, count: 1 };
    set((s) => ({ toasts: [...s.toasts, toast] }));
    return toast.id;
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Raises a toast from anywhere (a hook, a store, a module), not only from components. */
export const toast = {
  error: (title: string, detail?: string | null, link?: ToastLink) => useToasts.getState().push('error', title, detail, link),
  success: (title: string, detail?: string | null, link?: ToastLink) => useToasts.getState().push('success', title, detail, link),
  info: (title: string, detail?: string | null, link?: ToastLink) => useToasts.getState().push('info', title, detail, link),
  dismiss: (id: number) => useToasts.getState().dismiss(id),
};
