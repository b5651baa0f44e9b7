import { lazy, memo, Suspense } from 'react';

// Markdown's parser is fetched with the first answer, not with the app.
const MarkdownRenderer = lazy(() => import('./MarkdownRenderer.js').then((m) => ({ default: m.MarkdownRenderer })));

/** An answer's Markdown; the raw text stands in for the moment the renderer takes to arrive. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Suspense fallback={<p className="markdown-pending">{text}</p>}>
        <MarkdownRenderer text={text} />
      </Suspense>
    </div>
  );
});
