import { describe, expect, it } from 'vitest';
import { quoteSentences, sentencesOf, stem } from '../../../main/core/models/providers/extractive-quotes.js';
import type { Passage } from '../../../main/core/platform/ports/providers.js';
import { wordsOf } from '../../../shared/words.js';

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

  it('quotes a sentence met in two passages once, from the better one, and a passage without matching words only when nothing else matched (by its snippet)', () => {
    const quotes = quoteSentences('lamp lit', [passage(1, 'The lamp is lit at dusk.'), passage(2, 'The lamp is lit at dusk.'), passage(3, 'Unrelated words only.', 'Unrelated words')]);
    expect(quotes).toEqual([{ index: 1, text: 'The lamp is lit at dusk.', terms: 2 }]);
    expect(quoteSentences('lamp lit', [passage(3, 'Unrelated words only.', 'Unrelated words')])).toEqual([{ index: 3, text: 'Unrelated words', terms: 0 }]);
  });

  it('never quotes a heading, nor the section path the index put before the passage', () => {
    const text = 'Handbook > Benefits: Benefits\n\n## Remote benefits\n\nRemote staff receive an equipment allowance of EUR 1,200 per year.\n\n- Remote staff may claim a desk';
    const quotes = quoteSentences('What benefits do remote staff receive?', [{ ...passage(1, text), location: { start: 0, end: 1, section: 'Handbook > Benefits' } }]);
    expect(quotes.map((q) => q.text)).toEqual(['Remote staff receive an equipment allowance of EUR 1,200 per year.', '- Remote staff may claim a desk']);
  });

  it('quotes a table row only when it holds as many of the question’s terms as the best quote; never the column header', () => {
    const csv = 'Columns: city, country, population\nLima,Peru,10000000\nLima,Ohio,38000\nTown 3,Nowhere,1002';
    const quotes = quoteSentences('What is the population of Lima in Peru?', [
      passage(1, 'Peru is a country in South America.'),
      { ...passage(2, csv), location: { start: 0, end: 1, row_start: 1, row_end: 3 } },
    ]);
    expect(quotes.map((q) => [q.index, q.text])).toEqual([
      [2, 'Lima,Peru,10000000'],
      [1, 'Peru is a country in South America.'],
    ]);
  });

  it('reads a PDF passage’s sentence over its line breaks whole', () => {
    const text = 'Remote staff who work from home receive, after probation,\nan equipment allowance of EUR 1,200 per year.\n\nOther things.';
    const [quote] = quoteSentences('equipment allowance for remote staff', [{ ...passage(1, text), location: { start: 0, end: 1, page: 1 } }]);
    expect(quote?.text).toBe('Remote staff who work from home receive, after probation, an equipment allowance of EUR 1,200 per year.');
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

  it('ends Chinese and Japanese sentences at 。！？, with no space after them', () => {
    expect(sentencesOf('远程办公每周最多三天。设备补贴是一千二百欧元！补贴怎么申请？会議室は総務部が管理します。')).toEqual([
      '远程办公每周最多三天。',
      '设备补贴是一千二百欧元！',
      '补贴怎么申请？',
      '会議室は総務部が管理します。',
    ]);
  });

  it('finds a Chinese question’s words inside a Chinese sentence and quotes that sentence first', () => {
    const text = '公司总部位于柏林。远程办公每周最多三天。设备补贴是一千二百欧元。停车场在地下一层。';
    const quotes = quoteSentences('设备补贴是多少？', [passage(1, text)]);
    expect(quotes[0]).toMatchObject({ index: 1, text: '设备补贴是一千二百欧元。' });
    expect(quotes.map((q) => q.text)).not.toContain('公司总部位于柏林。');
  });

  it('finds a Japanese and a Thai word inside their sentences', () => {
    expect(quoteSentences('総務部', [passage(1, '駐車場は地下にあります。会議室は総務部が管理します。')])[0]?.text).toBe('会議室は総務部が管理します。');
    expect(quoteSentences('ที่จอดรถ', [passage(1, 'ห้องประชุมอยู่ชั้นสอง\nที่จอดรถอยู่ชั้นล่าง')])[0]?.text).toBe('ที่จอดรถอยู่ชั้นล่าง');
  });

  it('cuts a very long Chinese run without full stops around its term, between words', () => {
    const long = `${'我们的办公室在城市中心，'.repeat(40)}设备补贴是一千二百欧元，${'员工可以自由安排工作时间，'.repeat(40)}`;
    const [quote] = quoteSentences('设备补贴', [passage(1, long)]);
    expect(quote?.text).toMatch(/^….*设备补贴是一千二百欧元.*…$/);
    expect(quote?.text.length).toBeLessThanOrEqual(602);
    const inner = quote?.text.slice(1, -1) ?? '';
    const from = long.indexOf(inner);
    const starts = new Set([...wordsOf(long)].map((w) => w.index));
    const ends = new Set([...wordsOf(long)].map((w) => w.index + w.text.length));
    // Cut where a word starts and after a word ends (or its comma), never inside one.
    expect(starts.has(from)).toBe(true);
    const end = from + inner.length;
    expect(ends.has(end) || ends.has(end - 1)).toBe(true);
  });

  it('stems only Latin words', () => {
    expect(stem('Allowances')).toBe('allowanc');
    expect(stem('ที่จอดรถ')).toBe('ที่จอดรถ');
    expect(stem('Бюджете')).toBe('бюджете');
  });
});
