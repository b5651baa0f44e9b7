import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { z } from 'zod';
import type { PassageSource } from '../../../../shared/operations/passage-source.js';
import { client } from '../../api/index.js';
import { useLoader } from '../../ui/useLoader.js';
import { humanLocation } from '../../ui/passage-location.js';
import type { Message } from './types.js';

type Citation = Message['citations'][number];
type Source = z.output<typeof PassageSource>;

const offset = (value: string | number | undefined): number | null => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : null;
};

/** "page 2 of 12", "rows 14–16 of 30", "§ Allowances": where the shown part is, as a reader says it. */
export function shownWhere(source: Source, intl: IntlShape): string {
  const where = humanLocation(source.location, intl);
  if (source.kind === 'pages' && source.total_pages !== undefined) return intl.formatMessage({ id: 'chat.source.whereOfTotal' }, { where, total: source.total_pages });
  if (source.kind === 'rows' && source.total_rows !== undefined) return intl.formatMessage({ id: 'chat.source.whereOfTotal' }, { where, total: source.total_rows });
  return where;
}

/** Marks text left out before or after the part shown: a glyph, not words. */
const CUT = '…';

function SourceText({ source }: { source: Source }) {
  return (
    <div className="source-text">
      {source.truncated ? <p className="source-cut">{CUT}</p> : null}
      {source.segments.map((s, i) => (s.highlight ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
      {source.truncated ? <p className="source-cut">{CUT}</p> : null}
    </div>
  );
}

function SourceRows({ table }: { table: NonNullable<Source['table']> }) {
  return (
    <table className="source-table">
      <thead>
        <tr>
          <th scope="col">
            <FormattedMessage id="chat.source.row" />
          </th>
          {table.columns.map((c, i) => (
            <th scope="col" key={i}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row) => (
          <tr key={row.number} className={row.highlight ? 'source-row-cited' : undefined} aria-current={row.highlight ? 'true' : undefined}>
            <th scope="row">{row.number}</th>
            {row.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The cited passage where it sits in its file (`GET /artifacts/{id}/source`): the PDF page, the CSV
 * rows with their header, the section of a document — the passage marked and scrolled into view.
 * Until it arrives, or if the file cannot be read, the passage's own snippet stands in.
 */
export function SourceViewer({ citation }: { citation: Citation }) {
  const intl = useIntl();
  const start = offset(citation.location.start);
  const end = offset(citation.location.end);
  const loader = useLoader(async () => {
    if (start === null || end === null) return null;
    return client.call('passages.source', { artifact_id: citation.artifact_id, start, end, focus: citation.snippet.slice(0, 4000) });
  });
  const state = loader.state;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.status !== 'ready') return;
    const cited = box.current?.querySelector<HTMLElement>('mark, .source-row-cited');
    const scroller = box.current;
    // Within the viewer only: the page itself must not jump.
    if (cited && scroller) scroller.scrollTop = Math.max(0, cited.offsetTop - scroller.clientHeight / 3);
  }, [state.status]);

  const fallback = (note: string | null) => (
    <>
      {note ? <p className="citation-where">{note}</p> : null}
      <blockquote className="citation-snippet">
        <mark>{citation.snippet}</mark>
      </blockquote>
    </>
  );

  if (state.status === 'loading') return <div className="citation-viewer" aria-busy="true">{fallback(intl.formatMessage({ id: 'chat.source.opening' }))}</div>;
  if (state.status === 'error' || state.data === null) {
    const reason = state.status === 'error' ? state.error : intl.formatMessage({ id: 'chat.source.noPlace' });
    return <div className="citation-viewer">{fallback(intl.formatMessage({ id: 'chat.source.openFailed' }, { reason }))}</div>;
  }
  const source = state.data;
  const where = shownWhere(source, intl);
  const file = source.artifact_key;
  const note = !where
    ? intl.formatMessage({ id: 'chat.source.passageMarked' }, { file })
    : intl.formatMessage({ id: source.kind === 'rows' ? 'chat.source.rowsMarked' : 'chat.source.passageMarkedAt' }, { file, where });
  return (
    <div className="citation-viewer">
      <p className="citation-where">{note}</p>
      <div ref={box} className={`source-view source-view-${source.kind}`} tabIndex={0} role="region" aria-label={where ? intl.formatMessage({ id: 'chat.source.regionLabel' }, { file, where }) : file}>
        {source.kind === 'rows' && source.table ? <SourceRows table={source.table} /> : <SourceText source={source} />}
      </div>
    </div>
  );
}
