import { lazy, memo, Suspense, useCallback, useMemo } from 'react';
import type { Message } from './types.js';

// Markdown's parser is fetched with the first answer, not with the app.
const MarkdownRenderer = lazy(() => import('./MarkdownRenderer.js').then((m) => ({ default: m.MarkdownRenderer })));

/** An answer's Markdown; the raw text stands in for the moment the renderer takes to arrive. */
export const Markdown = memo(function Markdown({ text, citations = [], onCite }: { text: string; citations?: Message['citations']; onCite?: (index: number) => void }) {
  const cited = useMemo(() => new Set(citations.map((c) => c.index)), [citations]);
  const names = useMemo(() => new Map(citations.map((c) => [c.index, c.artifact_key])), [citations]);
  const sourceName = useCallback((n: number) => names.get(n), [names]);
  return (
    <div className="markdown">
      <Suspense fallback={<p className="markdown-pending">{text}</p>}>
        <MarkdownRenderer text={text} cited={cited} onCite={onCite} sourceName={sourceName} />
      </Suspense>
    </div>
  );
});
