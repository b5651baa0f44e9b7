import { Fragment, useId, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';

export type Orientation = 'horizontal' | 'vertical';

export interface CarouselProps<T> {
  label: string;
  /** From `[ui] carousel` in the config. */
  orientation: Orientation;
  items: readonly T[];
  keyOf: (item: T) => string;
  /** One card: a button, with the `tabIndex` given (only one card is a tab stop). */
  children: (item: T, tabIndex: 0 | -1) => ReactNode;
}

const KEYS: Record<Orientation, [back: string, forward: string]> = {
  horizontal: ['ArrowLeft', 'ArrowRight'],
  vertical: ['ArrowUp', 'ArrowDown'],
};

/**
 * A row or column of cards whose orientation comes from the config: an ARIA toolbar, so assistive
 * technology hears the orientation and which arrow keys move. One card is in the tab order (the
 * last one used); the arrows of the carousel's direction, Home and End move between them.
 */
export function Carousel<T>({ label, orientation, items, keyOf, children }: CarouselProps<T>) {
  const titleId = useId();
  const bar = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const current = Math.min(active, items.length - 1);

  const buttons = () => [...(bar.current?.querySelectorAll<HTMLButtonElement>(':scope > button') ?? [])];
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    // The focus event bubbles up from a card; `target` is the card, typed as the toolbar by React.
    const card: EventTarget = event.target;
    const index = buttons().findIndex((button) => button === card);
    if (index >= 0) setActive(index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const [back, forward] = KEYS[orientation];
    const last = items.length - 1;
    const next = { [back]: current - 1, [forward]: current + 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = buttons()[Math.max(0, Math.min(last, next))];
    target?.focus();
    target?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };

  return (
    <section className="carousel-section" aria-labelledby={titleId}>
      <h2 className="carousel-title" id={titleId}>
        {label}
      </h2>
      <div
        ref={bar}
        role="toolbar"
        aria-labelledby={titleId}
        aria-orientation={orientation}
        className={`carousel carousel-${orientation}`}
        data-orientation={orientation}
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      >
        {items.map((item, i) => (
          <Fragment key={keyOf(item)}>{children(item, i === current ? 0 : -1)}</Fragment>
        ))}
      </div>
    </section>
  );
}

