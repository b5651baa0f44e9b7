/**
 * HTML (`htmlparser2`): the main content as blocks — headings, paragraphs, lists, code, tables as
 * text — without scripts, styles, navigation and page chrome. Also used for DOCX (through the HTML
 * that mammoth makes) and for HTML embedded in Markdown.
 */
import { DomHandler, DomUtils, Parser, type parseDocument as parseHtmlDocument } from 'htmlparser2';
import { DocumentBuilder, oneLine } from '../builder.js';
import { PARSE_LIMITS } from '../limits.js';
import { decodeTextOrThrow } from '../text.js';
import { IngestError, type ParsedDocument } from '../types.js';

type Dom = ReturnType<typeof parseHtmlDocument>;
type Node = Dom['children'][number];
type Element = Extract<Node, { name: string; attribs: Record<string, string> }>;
type Text = Extract<Node, { type: 'text' }>;
type Parent = NonNullable<Node['parent']>;

/** Never content. */
const DROP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'iframe', 'object', 'embed', 'video', 'audio', 'map', 'nav', 'footer', 'aside', 'form', 'button', 'select', 'input', 'textarea', 'dialog', 'menu']);
const DROP_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'dialog', 'alert']);
/** Elements that end the running paragraph. */
const BLOCK = new Set(['address', 'article', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'header', 'hgroup', 'hr', 'html', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const CONTENT_ROOT = new Set(['article', 'main', 'section']);

const isElement = (node: Node | Parent): node is Element => 'attribs' in node;
const isText = (node: Node): node is Text => node.type === 'text';

/**
 * The DOM, refused once elements nest deeper than `PARSE_LIMITS.htmlDepth`: htmlparser2 keeps its
 * open elements in an array it grows at the front, so each level costs as much as all the levels
 * above it — an 11 MB file of nested tags held a parser process for its whole time budget. The
 * handler sees every open and close the parser makes, so its depth is the parser's.
 */
class DepthBoundedHandler extends DomHandler {
  private depth = 0;

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.depth > PARSE_LIMITS.htmlDepth) {
      throw new IngestError('too_large', `HTML: elements are nested more than ${PARSE_LIMITS.htmlDepth} levels deep; the file was not read.`);
    }
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.depth--;
    super.onclosetag();
  }
}

function parseBounded(html: string): Dom {
  const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
  const handler = new DepthBoundedHandler();
  new Parser(handler, options).end(html);
  return handler.root;
}

/** The outermost elements that pass `test` (none inside another), in one pass over the tree. */
function outermost(nodes: Node[], test: (el: Element) => boolean): Element[] {
  const found: Element[] = [];
  const visit = (node: Node) => {
    if (!isElement(node)) return;
    if (test(node)) found.push(node);
    else node.children.forEach(visit);
  };
  nodes.forEach(visit);
  return found;
}

/** Whether an element holds a block element anywhere below it; remembered, so a tree is searched once. */
const blockInside = new WeakMap<Element, boolean>();
function hasBlockInside(el: Element): boolean {
  let known = blockInside.get(el);
  if (known === undefined) {
    known = el.children.some((child) => isElement(child) && (BLOCK.has(child.name) || hasBlockInside(child)));
    blockInside.set(el, known);
  }
  return known;
}

function isBoilerplate(el: Element, insideContent: boolean): boolean {
  if (DROP.has(el.name)) return true;
  const role = el.attribs.role?.toLowerCase();
  if (role && DROP_ROLES.has(role)) return true;
  if ('hidden' in el.attribs || el.attribs['aria-hidden'] === 'true') return true;
  if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(el.attribs.style ?? '')) return true;
  // The page header (logo, menus) is chrome; an article's own header holds its title.
  if (el.name === 'header' && !insideContent) return true;
  return false;
}

/** Inline text of a subtree, whitespace collapsed; `<br>` kept as a newline; lists skipped when asked. */
function inlineText(nodes: Node[], skip: Set<string> = new Set()): string {
  const out: string[] = [];
  const visit = (node: Node) => {
    if (isText(node)) out.push(node.data);
    else if (isElement(node)) {
      if (DROP.has(node.name) || skip.has(node.name)) return;
      if (node.name === 'br') out.push('\u2028');
      else if (node.name === 'img') out.push(node.attribs.alt ? ` ${node.attribs.alt} ` : ' ');
      else {
        const block = BLOCK.has(node.name);
        if (block) out.push(' ');
        node.children.forEach(visit);
        if (block) out.push(' ');
      }
    }
  };
  nodes.forEach(visit);
  return out
    .join('')
    .replace(/[ \t\n\r\f\v\u00a0]+/g, ' ')
    .replace(/ ?\u2028 ?/g, '\n')
    .trim();
}

function renderList(list: Element, depth: number, lines: string[]): void {
  let n = Number.parseInt(list.attribs.start ?? '1', 10) || 1;
  for (const item of list.children) {
    if (!isElement(item)) continue;
    if (item.name === 'ul' || item.name === 'ol') {
      renderList(item, depth + 1, lines);
      continue;
    }
    if (item.name !== 'li' && item.name !== 'dt' && item.name !== 'dd') continue;
    const text = inlineText(item.children, new Set(['ul', 'ol']));
    const marker = list.name === 'ol' ? `${n++}.` : item.name === 'dd' ? '  ' : '-';
    if (text) lines.push(`${'  '.repeat(depth)}${marker} ${text.replace(/\n/g, ' ')}`.trimEnd());
    for (const child of item.children) if (isElement(child) && (child.name === 'ul' || child.name === 'ol')) renderList(child, depth + 1, lines);
  }
}

function renderTable(table: Element): string {
  const lines: string[] = [];
  const caption = DomUtils.findOne((el) => el.name === 'caption', table.children, false);
  if (caption) lines.push(inlineText(caption.children));
  // Rows of this table, not of tables nested in its cells.
  const rows = DomUtils.findAll((el) => el.name === 'tr', table.children).filter((tr) => closestTable(tr) === table);
  for (const tr of rows) {
    const cells = tr.children.filter((c): c is Element => isElement(c) && (c.name === 'td' || c.name === 'th')).map((c) => inlineText(c.children).replace(/\n/g, ' '));
    if (cells.some((c) => c !== '')) lines.push(cells.join(' | '));
  }
  return lines.join('\n');
}

function closestTable(node: Element): Element | null {
  for (let p = node.parent; p; p = p.parent) if (isElement(p) && p.name === 'table') return p;
  return null;
}

class HtmlWalker {
  private inline: Node[] = [];

  constructor(private readonly builder: DocumentBuilder) {}

  private flush(): void {
    if (this.inline.length === 0) return;
    const text = inlineText(this.inline);
    this.inline = [];
    this.builder.add('paragraph', text);
  }

  walk(nodes: Node[], insideContent: boolean): void {
    for (const node of nodes) {
      if (isText(node)) {
        this.inline.push(node);
        continue;
      }
      if (!isElement(node)) continue;
      if (isBoilerplate(node, insideContent)) continue;
      const name = node.name;
      const heading = /^h([1-6])$/.exec(name);
      if (heading) {
        this.flush();
        this.builder.add('heading', oneLine(inlineText(node.children)), { level: Number(heading[1]) });
      } else if (name === 'ul' || name === 'ol' || name === 'dl') {
        this.flush();
        const lines: string[] = [];
        renderList(node, 0, lines);
        this.builder.add('list', lines.join('\n'));
      } else if (name === 'pre') {
        this.flush();
        this.builder.add('code', DomUtils.textContent(node).replace(/^\n+|\s+$/g, ''));
      } else if (name === 'table') {
        this.flush();
        this.builder.add('table', renderTable(node));
      } else if (name === 'p') {
        this.flush();
        this.builder.add('paragraph', inlineText(node.children));
      } else if (name === 'hr') {
        this.flush();
      } else if (BLOCK.has(name)) {
        this.flush();
        this.walk(node.children, insideContent || CONTENT_ROOT.has(name));
        this.flush();
      } else {
        // Inline element: part of the running paragraph, unless it hides block content (a <span> around <div>s).
        if (hasBlockInside(node)) this.walk(node.children, insideContent);
        else this.inline.push(node);
      }
    }
  }

  finish(): void {
    this.flush();
  }
}

/** Adds the blocks of an HTML fragment or page; returns its `<title>`, if any. */
export function addHtml(builder: DocumentBuilder, html: string): { title?: string } {
  const dom = parseBounded(html);
  const titleEl = DomUtils.findOne((el) => el.name === 'title', dom.children, true);
  const title = titleEl ? oneLine(DomUtils.textContent(titleEl)) : '';
  // Prefer the page's main content when it says where that is.
  const main = DomUtils.findOne((el) => el.name === 'main' || el.attribs.role === 'main', dom.children, true);
  const topArticles = main ? [] : outermost(dom.children, (el) => el.name === 'article');
  const roots: Node[] = main ? [main] : topArticles.length > 0 ? topArticles : dom.children;
  const walker = new HtmlWalker(builder);
  walker.walk(roots, main !== null || topArticles.length > 0);
  walker.finish();
  return title ? { title } : {};
}

export function parseHtml(bytes: Buffer): ParsedDocument {
  const { text, encoding } = decodeTextOrThrow(bytes, 'HTML');
  const builder = new DocumentBuilder();
  const { title } = addHtml(builder, text);
  const metadata: ParsedDocument['metadata'] = { format: 'html', encoding };
  if (title) metadata.title = title;
  return builder.build(metadata);
}
