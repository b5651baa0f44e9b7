import { describe, expect, it } from 'vitest';
import { dollarDelimiters } from '../../../renderer/src/pages/chat/latex-delimiters.js';

describe('LaTeX delimiters', () => {
  it('turns \\(…\\) into inline dollars and \\[…\\] into display dollars, without inner spaces', () => {
    expect(dollarDelimiters('Energy \\( E = mc^2 \\) holds.')).toBe('Energy $E = mc^2$ holds.');
    expect(dollarDelimiters('\\[\n\\int_0^1 x\\,dx = \\tfrac12\n\\]')).toBe('$$\\int_0^1 x\\,dx = \\tfrac12$$');
  });

  it('leaves code spans, fenced code and plain escaped parentheses as written', () => {
    const fenced = '```tex\n\\( a \\)\n```\nthen \\(b\\)';
    expect(dollarDelimiters(fenced)).toBe('```tex\n\\( a \\)\n```\nthen $b$');
    expect(dollarDelimiters('use `\\(x\\)` in TeX')).toBe('use `\\(x\\)` in TeX');
    expect(dollarDelimiters('a \\(lone paren')).toBe('a \\(lone paren');
    expect(dollarDelimiters('No maths here (really).')).toBe('No maths here (really).');
  });
});
