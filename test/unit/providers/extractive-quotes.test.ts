import { describe, expect, it } from 'vitest';
import { quoteSentences, sentencesOf, stem } from '../../../main/core/models/providers/extractive-quotes.js';
import type { Passage } from '../../../main/core/platform/ports/providers.js';

const passage = (index: number, text: string, snippet = text.slice(0, 40)): Passage => ({ index, artifact_key: `f${index}.md`, text, snippet, location: { start: 0, end: text.length } });

describe('extractive quotes', () => {
  it('splits on sentence boundaries and on lines (a heading is its own sentence), keeping abbreviations and amounts whole', () => {
    expect(sentencesOf('# Pay\nThe allowance is EUR 1,200.50 per year. It is paid in Jan. each year!\n\n- a list item')).toEqual([
      '# Pay',
      'The allowance is EUR 1,200.50 per year.',
      'It is paid in Jan. each year!',
      '- a list item',
    ]);
  });

  it('ranks whole sentences by the distinct question terms they hold, then by passage rank and position', () => {
    const quotes = quoteSentences('How much is the home-office equipment allowance?', [
      passage(1, 'Equipment is company property. Travel is booked centrally.'),
      passage(2, 'Staff receive a one-time home-office allowance of EUR 1,200. Allowances are taxed.'),
    ]);
    expect(quotes.map((q) => [q.index, q.text, q.terms])).toEqual([
      [2, 'Staff receive a one-time home-office allowance of EUR 1,200.', 3],
      [1, 'Equipment is company property.', 1],
      [2, 'Allowances are taxed.', 1],
    ]);
  });

  it('quotes a sentence met in two passages once, from the better one, and quotes a passage without matching words by its snippet', () => {
    const quotes = quoteSentences('lamp lit', [passage(1, 'The lamp is lit at dusk.'), passage(2, 'The lamp is lit at dusk.'), passage(3, 'Unrelated words only.', 'Unrelated words')]);
    expect(quotes).toEqual([
      { index: 1, text: 'The lamp is lit at dusk.', terms: 2 },
      { index: 3, text: 'Unrelated words', terms: 0 },
    ]);
  });

  it('cuts a very long run without full stops around its first term, at word boundaries', () => {
    const long = `${'filler '.repeat(200)}the allowance is EUR 900 ${'more '.repeat(200)}`;
    const [quote] = quoteSentences('allowance', [passage(1, long)]);
    expect(quote?.text.length).toBeLessThanOrEqual(602);
    expect(quote?.text).toMatch(/^….*the allowance is EUR 900.*…$/);
  });

  it('stems plurals and verb forms', () => {
    expect(['allowances', 'allowance', 'pruned', 'prune', 'pruning', 'policies', 'policy', 'boxes', 'class'].map(stem)).toEqual([
      'allowanc',
      'allowanc',
      'prun',
      'prun',
      'prun',
      'policy',
      'policy',
      'box',
      'class',
    ]);
  });
});
