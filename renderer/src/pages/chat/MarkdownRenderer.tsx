import { useEffect, useMemo, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../ui/CopyButton.js';
import { dollarDelimiters } from './latex-delimiters.js';
import { loadedMath, loadMath, MATH_MARK, withMath } from './markdown-math.js';
import { CITE_HREF, remarkCiteLinks } from './remark-cite-links.js';

type Plugins = NonNullable<Options['rehypePlugins']>;

/** A fenced block that names its language: the only code the highlighter colours (`detect: false`). */
const NAMED_FENCE = /^ {0,3}(```|~~~)[ \t]*[\w+#.-]/m;

const PLAIN: Plugins = [rehypeSanitize];
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
  }, () => {
    // Not fetched (the service went away): the code stays plain, and the next answer asks again.
    loading = null;
    return PLAIN;
  });
  return loading;
}

/** The language a fenced block names (```python → "python"), from its code element's class. */
function fenceLanguage(node: unknown): string | null {
  const code = (node as { children?: { properties?: { className?: unknown } }[] } | undefined)?.children?.[0];
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) if (typeof name === 'string' && name.startsWith('language-')) return name.slice('language-'.length);
  return null;
}

/** A code block with the language it is written in and its own Copy button (the code's text, as shown). */
function CodeBlock({ children, node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const intl = useIntl();
  const pre = useRef<HTMLPreElement>(null);
  const language = fenceLanguage(node);
  return (
    <div className="md-code">
      {language ? <span className="code-language">{language}</span> : null}
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
 * HTML, no script URLs), with code highlighted once the highlighter is here, its language and a
 * Copy button on each code block, `$…$` and `$$…$$` maths drawn by KaTeX once it is here (prices
 * like "$5 and $10" stay text), and every cited `[n]` a link to its source. Half-written Markdown mid-stream renders
 * as well as it parses.
 */
export function MarkdownRenderer({ text: written, cited, onCite, sourceName }: MarkdownRendererProps) {
  const intl = useIntl();
  // `\(…\)` and `\[…\]` as the dollars remark-math reads (latex-delimiters.ts).
  const text = useMemo(() => dollarDelimiters(written), [written]);
  const needsHighlighter = NAMED_FENCE.test(text);
  const [plugins, setPlugins] = useState<Plugins>(highlighted ?? PLAIN);
  useEffect(() => {
    if (needsHighlighter && plugins === PLAIN) void loadHighlighter().then(setPlugins);
  }, [needsHighlighter, plugins]);
  const needsMath = MATH_MARK.test(text);
  const [math, setMath] = useState(loadedMath);
  // Asked again as the answer grows while it is missing: the service may be back by then.
  useEffect(() => {
    if (needsMath && !math) void loadMath().then(setMath);
  }, [needsMath, math, text]);
  const citedKey = [...(cited ?? [])].join(',');
  // Keyed by the numbers, not the set's identity: a new set with the same numbers keeps the parse.
  const remarkPlugins = useMemo<NonNullable<Options['remarkPlugins']>>(() => [remarkGfm, ...(math?.remark ?? []), [remarkCiteLinks, { cited: cited ?? new Set() }]], [citedKey, math]);
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
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={withMath(plugins, math)} components={components}>
      {text}
    </ReactMarkdown>
  );
}
