import type { ReactNode } from 'react';

/** What is coming, roughly: the placeholder takes the shape of the content it stands for. */
export type SkeletonShape = 'table' | 'list' | 'cards' | 'messages' | 'page';

export interface SkeletonProps {
  shape: SkeletonShape;
  /** Read out instead of the shapes, e.g. "Loading users…". */
  label: string;
  rows?: number;
}

/** About as many rows as the content usually has, on a first screen. */
const ROWS: Record<SkeletonShape, number> = { table: 4, list: 6, cards: 3, messages: 4, page: 4 };

/** Widths that vary from row to row, so the placeholder reads as text and not as a grid of bars. */
const WIDTHS = ['72%', '48%', '86%', '60%', '38%', '78%', '54%'];
const width = (i: number) => WIDTHS[i % WIDTHS.length] as string;

function Bar({ w, className }: { w: string; className?: string }) {
  return <span className={className ? `skeleton-bar ${className}` : 'skeleton-bar'} style={{ width: w }} />;
}

function repeat(count: number, render: (i: number) => ReactNode): ReactNode[] {
  return Array.from({ length: count }, (_, i) => render(i));
}

const SHAPES: Record<SkeletonShape, (rows: number) => ReactNode> = {
  table: (rows) => (
    <div className="skeleton-table">
      <div className="skeleton-row skeleton-head">{repeat(4, (c) => <Bar key={c} w="40%" />)}</div>
      {repeat(rows, (r) => (
        <div key={r} className="skeleton-row">
          {repeat(4, (c) => <Bar key={c} w={width(r + c)} />)}
        </div>
      ))}
    </div>
  ),
  list: (rows) => <div className="skeleton-list">{repeat(rows, (r) => <Bar key={r} w={width(r)} className="skeleton-line" />)}</div>,
  cards: (rows) => (
    <div className="skeleton-cards">
      {repeat(rows, (r) => (
        <div key={r} className="skeleton-card">
          <Bar w="55%" className="skeleton-title" />
          <Bar w={width(r)} />
          <Bar w="40%" />
        </div>
      ))}
    </div>
  ),
  messages: (rows) => (
    <div className="skeleton-messages">
      {repeat(rows, (r) =>
        r % 2 === 0 ? (
          <div key={r} className="skeleton-question">
            <Bar w="100%" className="skeleton-bubble" />
          </div>
        ) : (
          <div key={r} className="skeleton-answer">
            {repeat(3, (l) => <Bar key={l} w={width(r + l)} />)}
          </div>
        ),
      )}
    </div>
  ),
  page: (rows) => (
    <div className="skeleton-page">
      <Bar w="30%" className="skeleton-heading" />
      <Bar w="58%" />
      <div className="skeleton-block">{repeat(rows, (r) => <Bar key={r} w={width(r)} />)}</div>
    </div>
  ),
};

/**
 * A placeholder shaped like what is loading, shimmering unless reduced motion is asked for. Screen
 * readers hear only `label`, once, from the status role.
 */
export function Skeleton({ shape, label, rows = ROWS[shape] }: SkeletonProps) {
  return (
    <div className={`skeleton skeleton-${shape}-wrap`} role="status" data-skeleton={shape}>
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true">{SHAPES[shape](rows)}</div>
    </div>
  );
}
