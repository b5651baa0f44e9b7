import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/**
 * How a column behaves in a narrow window (≤ 640 px), where a table must not scroll sideways to
 * reach its actions: `keep` stays; `hide` goes (what matters least, or what the row repeats);
 * `under` goes too, its cell then shown as a second line under the row's name.
 */
export type NarrowBehaviour = 'keep' | 'hide' | 'under';

export interface Column<T> {
  /** Stable key of the column (React key). */
  id: string;
  /** The visible header. */
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned tabular figures. */
  numeric?: boolean;
  /** Long text (paths, descriptions, errors) that wraps inside the cell instead of widening the table. */
  wrap?: boolean;
  narrow?: NarrowBehaviour;
  /** With `narrow: 'under'`: the line under the name, when the cell alone would not say what it is ("Until 3 May"). */
  underCell?: (row: T) => ReactNode;
}

export interface DataTableProps<T> {
  /** The table's accessible name (a caption that only assistive technology reads). */
  caption: string;
  /** The row's name, shown as the row header (`<th scope="row">`); first column. */
  name: { header: string; cell: (row: T) => ReactNode; wrap?: boolean; className?: string };
  columns: Array<Column<T>>;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The row's actions (buttons whose accessible names name the row); last column, right-aligned. */
  actions?: ((row: T) => ReactNode) | undefined;
  /** Shown instead of the table when there is no row. */
  empty: ReactNode;
  /** Marks the row being worked on (its manager open under the table, say). */
  isCurrent?: ((row: T) => boolean) | undefined;
  className?: string | undefined;
}

const cellClass = (column: Column<unknown>) =>
  [column.numeric ? 'num' : null, column.wrap ? 'cell-wrap' : null, column.narrow === 'hide' || column.narrow === 'under' ? 'hide-narrow' : null]
    .filter(Boolean)
    .join(' ') || undefined;

/**
 * The one table of the Settings, Admin and Datasets pages: a real `<table>` named by its caption,
 * a row header per row, visually hidden "Actions" header, the same empty state everywhere, and
 * columns that give way in a narrow window so that a row's name, status and actions stay in view.
 */
export function DataTable<T>({ caption, name, columns, rows, rowKey, actions, empty, isCurrent, className }: DataTableProps<T>) {
  if (rows.length === 0) return <>{empty}</>;
  const under = columns.filter((c) => c.narrow === 'under');
  return (
    <div className="table-wrap">
      <table className={['table', 'data-table', className].filter(Boolean).join(' ')}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{name.header}</th>
            {columns.map((c) => (
              <th scope="col" key={c.id} className={cellClass(c as Column<unknown>)}>
                {c.header}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="cell-actions">
                <span className="visually-hidden">
                  <FormattedMessage id="ui.table.actions" />
                </span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} aria-current={isCurrent?.(row) ? 'true' : undefined}>
              <th scope="row" className={['cell-primary', name.wrap ? 'cell-wrap' : null, name.className].filter(Boolean).join(' ')}>
                {name.cell(row)}
                {under.map((c) => (
                  <span key={c.id} className="cell-secondary show-narrow">
                    {(c.underCell ?? c.cell)(row)}
                  </span>
                ))}
              </th>
              {columns.map((c) => (
                <td key={c.id} className={cellClass(c as Column<unknown>)}>
                  {c.cell(row)}
                </td>
              ))}
              {actions ? (
                <td className="cell-actions">
                  <div className="row-actions">{actions(row)}</div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a table shows when it has no row: the same dashed box everywhere, an icon and a sentence. */
export function TableEmpty({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <div className="table-empty">
      {icon}
      <p>{children}</p>
    </div>
  );
}
