import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../main/core/knowledge/ingest/parsers/markdown.js';

describe('Markdown character references', () => {
  it('are decoded as a browser would: named (HTML5 too), decimal and hexadecimal', () => {
    const doc = parseMarkdown(Buffer.from('# Prices &amp; terms\n\nTea &mdash; &euro;3 &#8212; caf&eacute; &#x2603; &copy; 5 &lt; 6 &hellip;\n'));
    const text = doc.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('Prices & terms');
    expect(text).toContain('Tea — €3 — café ☃ © 5 < 6 …');
  });

  it('leave text that only looks like a reference alone', () => {
    const doc = parseMarkdown(Buffer.from('R&D &foo; AT&T &#xZZ;\n'));
    expect(doc.blocks.map((b) => b.text).join('\n')).toContain('R&D &foo; AT&T &#xZZ;');
  });
});
