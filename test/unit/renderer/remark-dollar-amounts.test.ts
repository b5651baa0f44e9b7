import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import { remarkDollarAmounts } from '../../../renderer/src/pages/chat/remark-dollar-amounts.js';

/** The hast remark-math gives: maths is `code.language-math`, display maths inside a `pre`. */
function html(text: string): string {
  return renderToStaticMarkup(createElement(ReactMarkdown, { remarkPlugins: [remarkMath, remarkDollarAmounts] }, text));
}

describe('remarkDollarAmounts', () => {
  it('leaves prices as text', () => {
    expect(html('It costs $5 and $10 today.')).toBe('<p>It costs $5 and $10 today.</p>');
    expect(html('From $5-$10, or $ 3 $')).toBe('<p>From $5-$10, or $ 3 $</p>');
  });

  it('keeps single-dollar maths', () => {
    expect(html('Energy $E=mc^2$ holds.')).toBe('<p>Energy <code class="language-math math-inline">E=mc^2</code> holds.</p>');
  });

  it('shows a line of only $$…$$ as display maths, and $$…$$ within a sentence inline', () => {
    expect(html('$$E=mc^2$$')).toBe('<pre><code class="language-math math-display">E=mc^2</code></pre>');
    expect(html('so $$x$$ is')).toBe('<p>so <code class="language-math math-inline">x</code> is</p>');
  });
});
