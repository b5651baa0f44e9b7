import type { Link, Parent, PhrasingContent, Root, Text } from 'mdast';

/** The href an inline citation mark gets; the renderer turns it into a button that opens the source. */
export const CITE_HREF = /^#cite-(\d+)$/;

const MARK = /\[(\d{1,3})\]/g;

/** Splits one text node around its `[n]` marks (only numbers in `cited`), each mark a link. */
function split(node: Text, cited: ReadonlySet<number>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let last = 0;
  for (const match of node.value.matchAll(MARK)) {
    const n = Number(match[1]);
    if (!cited.has(n)) continue;
    const at = match.index;
    if (at > last) out.push({ type: 'text', value: node.value.slice(last, at) });
    const link: Link = { type: 'link', url: `#cite-${n}`, children: [{ type: 'text', value: `[${n}]` }] };
    out.push(link);
    last = at + match[0].length;
  }
  if (out.length === 0) return [node];
  if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) });
  return out;
}

function walk(parent: Parent, cited: ReadonlySet<number>): void {
  const children: Parent['children'] = [];
  for (const child of parent.children) {
    if (child.type === 'text') children.push(...split(child, cited));
    else {
      // Code stays verbatim, and a link inside a link is not a thing.
      if ('children' in child && child.type !== 'link' && child.type !== 'linkReference') walk(child, cited);
      children.push(child);
    }
  }
  parent.children = children as typeof parent.children;
}

/**
 * A remark plugin: each `[n]` in an answer's prose that names one of its sources becomes a link,
 * which the renderer draws as a button that opens that source. Code and inline code are left alone.
 */
export function remarkCiteLinks(options: { cited: ReadonlySet<number> }) {
  return (tree: Root) => {
    if (options.cited.size > 0) walk(tree, options.cited);
  };
}
