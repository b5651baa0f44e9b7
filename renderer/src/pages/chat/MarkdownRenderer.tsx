import { useEffect, useMemo, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../ui/CopyButton.js';
import { CITE_HREF, remarkCiteLinks } from './remark-cite-links.js';

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

/** A code block with its own Copy button (the code's text, as shown). */
function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const intl = useIntl();
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="md-code">
      <CopyButton className="code-copy" text={() => pre.current?.textContent ?? ''} label={intl.formatMessage({ id: 'chat.markdown.copyCode' })} />
      <pre ref={pre} {...rest}>
        {children}
      </pre>
    </div>
  );
}

/** A wide table scrolls on its own, not the whole answer. */
function Table({ children, node: _node, ...rest }: ComponentProps<'table'> & { node?: unknown }) {
  const intl = useIntl();
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={intl.formatMessage({ id: 'chat.markdown.table' })}>
      <table {...rest}>{children}</table>
    </div>
  );
}

export interface MarkdownRendererProps {
  text: string;
  /** The source numbers the answer may link to, and what opens one. */
  cited?: ReadonlySet<number> | undefined;
  onCite?: ((index: number) => void) | undefined;
  /** The file name of each source, for the links' accessible names. */
  sourceName?: ((index: number) => string | undefined) | undefined;
}

/**
 * An answer's Markdown (GitHub-flavoured: tables, task lists, strikethrough): sanitised (no raw
 * HTML, no script URLs), with code highlighted once the highlighter is here, a Copy button on each
 * code block, and every cited `[n]` a link to its source. Half-written Markdown mid-stream renders
 * as well as it parses.
 */
export function MarkdownRenderer({ text, cited, onCite, sourceName }: MarkdownRendererProps) {
  const intl = useIntl();
  const needsHighlighter = NAMED_FENCE.test(text);
  const [plugins, setPlugins] = useState<Plugins>(highlighted ?? PLAIN);
  useEffect(() => {
    if (needsHighlighter && plugins === PLAIN) void loadHighlighter().then(setPlugins);
  }, [needsHighlighter, plugins]);
  const citedKey = [...(cited ?? [])].join(',');
  // Keyed by the numbers, not the set's identity: a new set with the same numbers keeps the parse.
  const remarkPlugins = useMemo<NonNullable<Options['remarkPlugins']>>(() => [remarkGfm, [remarkCiteLinks, { cited: cited ?? new Set() }]], [citedKey]);
  const components = useMemo<Components>(
    () => ({
      pre: CodeBlock,
      table: Table,
      a({ href, children, node: _node, ...rest }): ReactNode {
        const cite = href ? CITE_HREF.exec(href) : null;
        if (cite && onCite) {
          const n = Number(cite[1]);
          const name = sourceName?.(n);
          return (
            <button type="button" className="cite-link" aria-label={name ? intl.formatMessage({ id: 'chat.markdown.sourceNamed' }, { n, name }) : intl.formatMessage({ id: 'chat.markdown.source' }, { n })} onClick={() => onCite(n)}>
              {children}
            </button>
          );
        }
        return (
          <a href={href} target="_blank" rel="noreferrer noopener" {...rest}>
            {children}
          </a>
        );
      },
    }),
    [onCite, sourceName, intl],
  );
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={plugins} components={components}>
      {text}
    </ReactMarkdown>
  );
}
