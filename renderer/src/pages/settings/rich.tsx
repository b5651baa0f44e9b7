import type { ReactNode } from 'react';

/** The `<hidden>` tag of a message: words for screen readers only, such as the row a button acts on. */
export const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;
/** The `<b>` tag of a message: a name that stands out. */
export const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
/** The `<muted>` tag of a message: secondary words, greyed. */
export const muted = (chunks: ReactNode[]) => <span className="muted">{chunks}</span>;
