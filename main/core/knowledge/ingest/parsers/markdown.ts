/**
 * Markdown (`marked`'s lexer, GFM): headings with levels, paragraphs, lists, code blocks, tables,
 * block quotes; inline markup reduced to its text; embedded HTML read by the HTML parser; YAML
 * front matter kept out of the text (its `title` goes to the metadata).
 */
import { decodeHTML } from 'entities';
import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { DocumentBuilder, oneLine } from '../builder.js';
import { decodeTextOrThrow } from '../text.js';
import type { ParsedDocument } from '../types.js';
import { addHtml } from './html.js';

/** Marked leaves character references in text as written; every HTML5 one is decoded, as a browser would. */
const decodeEntities = (text: string): string => (text.includes('&') ? decodeHTML(text) : text);

/** The visible text of inline tokens. */
function inline(tokens: Token[] | undefined, fallback = ''): string {
  if (!tokens) return decodeEntities(fallback);
  let out = '';
  for (const t of tokens as MarkedToken[]) {
    switch (t.type) {
      case 'text':
        out += t.tokens ? inline(t.tokens) : decodeEntities(t.text);
        break;
      case 'escape':
      case 'codespan':
        out += decodeEntities(t.text);
        break;
      case 'strong':
      case 'em':
      case 'del':
      case 'link':
        out += inline(t.tokens, t.text);
        break;
      case 'image':
        out += t.text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'checkbox':
        out += t.checked ? '[x] ' : '[ ] ';
        break;
      case 'html':
        // Inline tags carry no text of their own.
        break;
      default:
        if ('text' in t && typeof t.text === 'string') out += decodeEntities(t.text);
    }
  }
  return out;
}

function listLines(list: Tokens.List, depth: number, lines: string[]): void {
  let n = typeof list.start === 'number' ? list.start : 1;
  for (const item of list.items) {
    const marker = list.ordered ? `${n++}.` : '-';
    const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    const own: string[] = [];
    const nested: Tokens.List[] = [];
    for (const t of item.tokens as MarkedToken[]) {
      if (t.type === 'list') nested.push(t);
      else if (t.type === 'text' || t.type === 'paragraph') own.push(inline(t.tokens, t.text));
      else if (t.type === 'code') own.push(t.text);
      else if (t.type === 'checkbox' || t.type === 'space') continue;
      else if ('text' in t && typeof t.text === 'string') own.push(decodeEntities(t.text));
    }
    const text = oneLine(own.join(' ')).replace(/^\[[ x]\] /, '');
    lines.push(`${'  '.repeat(depth)}${marker} ${task}${text}`.trimEnd());
    for (const sub of nested) listLines(sub, depth + 1, lines);
  }
}

function addTokens(builder: DocumentBuilder, tokens: Token[]): void {
  for (const t of tokens as MarkedToken[]) {
    switch (t.type) {
      case 'heading':
        builder.add('heading', oneLine(inline(t.tokens, t.text)), { level: t.depth });
        break;
      case 'paragraph':
      case 'text':
        builder.add('paragraph', inline(t.tokens, t.text));
        break;
      case 'list': {
        const lines: string[] = [];
        listLines(t, 0, lines);
        builder.add('list', lines.join('\n'));
        break;
      }
      case 'code':
        builder.add('code', t.text);
        break;
      case 'blockquote':
        addTokens(builder, t.tokens);
        break;
      case 'table': {
        const row = (cells: Tokens.TableCell[]) => cells.map((c) => oneLine(inline(c.tokens, c.text))).join(' | ');
        builder.add('table', [row(t.header), ...t.rows.map(row)].join('\n'));
        break;
      }
      case 'html':
        addHtml(builder, t.text);
        break;
      default:
        // space, hr, link definitions: no text.
        break;
    }
  }
}

/** Strips YAML front matter; returns the body and the front matter's title, if any. */
function frontMatter(text: string): { body: string; title?: string } {
  const match = /^---[ \t]*\n([\s\S]{0,8000}?)\n(---|\.\.\.)[ \t]*(\n|$)/.exec(text);
  if (!match) return { body: text };
  const yaml = match[1] ?? '';
  if (!/^[\w-]+[ \t]*:/m.test(yaml)) return { body: text };
  const title = /^title[ \t]*:[ \t]*(.+)$/m.exec(yaml)?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2');
  const body = text.slice(match[0].length);
  return title ? { body, title } : { body };
}

export function parseMarkdown(bytes: Buffer): ParsedDocument {
  const { text, encoding } = decodeTextOrThrow(bytes, 'Markdown');
  const { body, title } = frontMatter(text);
  const tokens = Lexer.lex(body, { gfm: true });
  const builder = new DocumentBuilder();
  addTokens(builder, tokens);
  const metadata: ParsedDocument['metadata'] = { format: 'markdown', encoding };
  if (title) metadata.title = title;
  return builder.build(metadata);
}
