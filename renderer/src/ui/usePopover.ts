import { useEffect, useRef, type RefObject } from 'react';

/**
 * A popover on a native `<details>`: it closes on Esc (focus back on its summary), on a click or
 * focus outside it, and whenever `closeWhen` changes (a message sent, say).
 */
export function usePopover(closeWhen?: unknown): RefObject<HTMLDetailsElement | null> {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (refocus: boolean) => {
      const el = ref.current;
      if (!el?.open) return;
      el.open = false;
      if (refocus) el.querySelector('summary')?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && ref.current?.open) {
        // Esc closes the popover only; it must not also stop an answer or close a dialog behind.
        event.stopPropagation();
        close(true);
      }
    };
    const onOutside = (event: Event) => {
      if (ref.current && event.target instanceof Node && !ref.current.contains(event.target)) close(false);
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onOutside, true);
    document.addEventListener('focusin', onOutside, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      document.removeEventListener('focusin', onOutside, true);
    };
  }, []);
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [closeWhen]);
  return ref;
}
