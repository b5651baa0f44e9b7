import type { Paragraph, Parent, Root, RootContent } from 'mdast';

/** A single-dollar span that reads as money: space inside its dollars, or a digit right after the closing one. */
function readsAsMoney(source: string, start: number, end: number): boolean {
  const inner = source.slice(start + 1, end - 1);
  return /^\s|\s$/.test(inner) || /^\d/.test(source.slice(end, end + 1));
}

/** A paragraph that is only `$$…$$` on one line: shown as a formula of its own, as a writer means it. */
function aloneDisplay(node: Paragraph, source: string): RootContent | null {
  const [only] = node.children;
  if (node.children.length !== 1 || only?.type !== 'inlineMath') return null;
  const start = only.position?.start.offset;
  if (start === undefined || !source.startsWith('$$', start)) return null;
  // The markup remark-math gives a fenced `$$` block, which KaTeX draws as display maths.
  const code = { type: 'element' as const, tagName: 'code', properties: { className: ['language-math', 'math-display'] }, children: [{ type: 'text' as const, value: only.value }] };
  return { type: 'math', value: only.value, data: { hName: 'pre', hChildren: [code] }, ...(node.position ? { position: node.position } : {}) };
}

function walk(parent: Parent, source: string): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'inlineMath') {
      const start = child.position?.start.offset;
      const end = child.position?.end.offset;
      // Only single dollars are read this way: `$$…$$` is never a price.
      if (start !== undefined && end !== undefined && !source.startsWith('$$', start) && readsAsMoney(source, start, end)) {
        children.push({ type: 'text', value: source.slice(start, end) });
        continue;
      }
    }
    if (child.type === 'paragraph') {
      const display = aloneDisplay(child, source);
      if (display) {
        children.push(display);
        continue;
      }
    }
    if ('children' in child) walk(child, source);
    children.push(child);
  }
  parent.children = children as typeof parent.children;
}

/**
 * A remark plugin, after remark-math: with `$…$` maths on, "$5 and $10" would pair its dollars
 * into a formula. As Pandoc does, a `$…$` with space just inside a dollar, or a digit right after
 * the closing one, is put back as the text it was. A line that is only `$$…$$` is display maths.
 */
export function remarkDollarAmounts() {
  return (tree: Root, file: { value?: unknown }) => {
    walk(tree, typeof file.value === 'string' ? file.value : '');
  };
}
