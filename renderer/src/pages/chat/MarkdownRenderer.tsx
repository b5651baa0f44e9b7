import { useEffect, useState } from 'react';
import ReactMarkdown, { type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

type Plugins = NonNullable<Options['rehypePlugins']>;

/** A fenced block that names its language: the only code the highlighter colours (`detect: false`). */
const NAMED_FENCE = /^ {0,3}(```|~~~)[ \t]*[\w+#.-]/m;

let highlighted: Plugins | null = null;
let loading: Promise<Plugins> | null = null;

/**
 * The highlighter and its languages are most of the renderer's weight, and most answers have no
 * code: they are fetched the first time an answer has a fenced block, then kept.
 */
function loadHighlighter(): Promise<Plugins> {
  loading ??= import('rehype-highlight').then(({ default: rehypeHighlight }) => {
    // Sanitised first (a model's output is untrusted), then highlighted, so its classes are kept.
    highlighted = [rehypeSanitize, [rehypeHighlight, { detect: false }]];
    return highlighted;
  });
  return loading;
}

const PLAIN: Plugins = [rehypeSanitize];

/**
 * An answer's Markdown: sanitised (no raw HTML, no script URLs), with code highlighted once the
 * highlighter is here. Half-written Markdown mid-stream renders as well as it parses.
 */
export function MarkdownRenderer({ text }: { text: string }) {
  const needsHighlighter = NAMED_FENCE.test(text);
  const [plugins, setPlugins] = useState<Plugins>(highlighted ?? PLAIN);
  useEffect(() => {
    if (needsHighlighter && plugins === PLAIN) void loadHighlighter().then(setPlugins);
  }, [needsHighlighter, plugins]);
  return <ReactMarkdown rehypePlugins={plugins}>{text}</ReactMarkdown>;
}
