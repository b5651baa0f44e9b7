import { memo } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';

/**
 * An answer's Markdown. Sanitised first (a model's output is untrusted text: no raw HTML, no
 * script URLs), then highlighted, so the highlighter's classes are not stripped. Half-written
 * Markdown mid-stream renders as well as it parses; the next delta fixes it.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown rehypePlugins={[rehypeSanitize, [rehypeHighlight, { detect: false, ignoreMissing: true }]]}>{text}</ReactMarkdown>
    </div>
  );
});
