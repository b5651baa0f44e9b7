import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import type { MarkdownRenderer } from './MarkdownRenderer.js';
import type { Message } from './types.js';

type Renderer = typeof MarkdownRenderer;

let renderer: Renderer | null = null;
let loading: Promise<Renderer> | null = null;

/**
 * Markdown's parser is a chunk of its own, fetched once the chat opens rather than with the app.
 * A failed fetch (the service went away) is forgotten, so the next answer asks again: it must never
 * reach an error boundary, which would read it as an update and take the whole page down.
 */
export function loadMarkdownRenderer(): Promise<Renderer> {
  loading ??= import('./MarkdownRenderer.js').then(
    (m) => (renderer = m.MarkdownRenderer),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** An answer's Markdown; the raw text stands in until the renderer is here (or while it cannot be fetched). */
export const Markdown = memo(function Markdown({ text, citations = [], onCite }: { text: string; citations?: Message['citations']; onCite?: (index: number) => void }) {
  const cited = useMemo(() => new Set(citations.map((c) => c.index)), [citations]);
  const names = useMemo(() => new Map(citations.map((c) => [c.index, c.artifact_key])), [citations]);
  const sourceName = useCallback((n: number) => names.get(n), [names]);
  const [Renderer, setRenderer] = useState<Renderer | null>(() => renderer);
  // Asked again as the answer grows while it is missing: the service may be back by then.
  useEffect(() => {
    if (Renderer) return;
    let current = true;
    loadMarkdownRenderer().then(
      (loaded) => current && setRenderer(() => loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [Renderer, text]);
  return <div className="markdown">{Renderer ? <Renderer text={text} cited={cited} onCite={onCite} sourceName={sourceName} /> : <p className="markdown-pending">{text}</p>}</div>;
});
