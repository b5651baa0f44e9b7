import { useEffect, useRef } from 'react';
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
export function shownWhere(source: Source): string {
  const where = humanLocation(source.location);
  if (source.kind === 'pages' && source.total_pages !== undefined) return `${where} of ${source.total_pages}`;
  if (source.kind === 'rows' && source.total_rows !== undefined) return `${where} of ${source.total_rows}`;
  return where;
}

function SourceText({ source }: { source: Source }) {
  return (
    <div className="source-text">
      {source.truncated ? <p className="source-cut">…</p> : null}
      {source.segments.map((s, i) => (s.highlight ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
      {source.truncated ? <p className="source-cut">…</p> : null}
    </div>
  );
}

function SourceRows({ table }: { table: NonNullable<Source['table']> }) {
  return (
    <table className="source-table">
      <thead>
        <tr>
          <th scope="col">Row</th>
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

  if (state.status === 'loading') return <div className="citation-viewer" aria-busy="true">{fallback('Opening the file at the passage…')}</div>;
  if (state.status === 'error' || state.data === null) {
    const why = state.status === 'error' ? state.error : 'This passage has no place in its file to show.';
    return <div className="citation-viewer">{fallback(`The file could not be opened here (${why}). The passage:`)}</div>;
  }
  const source = state.data;
  const where = shownWhere(source);
  return (
    <div className="citation-viewer">
      <p className="citation-where">{where ? `${source.artifact_key}, ${where}${source.kind === 'rows' ? ' — the cited rows are marked' : ' — the passage is marked'}` : `${source.artifact_key} — the passage is marked`}</p>
      <div ref={box} className={`source-view source-view-${source.kind}`} tabIndex={0} role="region" aria-label={`${source.artifact_key}${where ? `, ${where}` : ''}`}>
        {source.kind === 'rows' && source.table ? <SourceRows table={source.table} /> : <SourceText source={source} />}
      </div>
    </div>
  );
}
