import { describe, expect, it } from 'vitest';
import { attributeCitations, contentTerms } from '../../../main/core/answering/attribution.js';
import { shownCitations } from '../../../shared/citations.js';

const PASSAGES = [
  'The lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.',
  'Sourdough bread needs a starter fed with flour and water; the dough rests overnight before baking at high heat.',
  'Apple trees are pruned in late winter, and the orchard is sprayed with lime sulphur against scab before blossom.',
];
const sources = PASSAGES.map((text, i) => ({ citation: { index: i + 1, artifact_key: `doc${i + 1}.md` }, text }));
const cited = (answer: string, question = '') => attributeCitations(sources, answer, question).map((c) => [c.index, c.attribution]);

describe('attributing an answer to the passages it draws on', () => {
  it('an answer paraphrasing passage 2 cites passage 2, not 1 or 3', () => {
    const answer = 'To make sourdough you feed a starter with flour and water, then let the dough rest overnight. Bake it hot.';
    expect(cited(answer, 'How do I make sourdough bread?')).toEqual([[2, 'overlap']]);
  });

  it('each sentence is credited to the passage that holds it', () => {
    const answer = 'The keeper lights the lamp at dusk and trims the wick.\nPrune apple trees in late winter, before blossom!';
    expect(cited(answer)).toEqual([
      [1, 'overlap'],
      [3, 'overlap'],
    ]);
  });

  it('an answer unrelated to every passage cites none', () => {
    expect(cited('Paris is the capital of France. Its museums open at nine.')).toEqual([]);
    expect(cited('Yes.')).toEqual([]);
    expect(cited('')).toEqual([]);
  });

  it('a sentence that only repeats the question cites nothing', () => {
    expect(cited('I do not know when the lighthouse lamp is lit.', 'When is the lighthouse lamp lit?')).toEqual([]);
    expect(cited('The lighthouse lamp is lit at dusk.', 'When is the lighthouse lamp lit?')).toEqual([[1, 'overlap']]);
  });

  it('an answer with [n] markers is attributed by its markers, whatever its words', () => {
    const answer = 'Sourdough needs a starter fed with flour and water [3].';
    expect(cited(answer)).toEqual([[3, 'marker']]);
    expect(cited('The lamp is lit at dusk [1] and trees are pruned in winter [1-3].')).toEqual([
      [1, 'marker'],
      [2, 'marker'],
      [3, 'marker'],
    ]);
  });

  it('markers naming no passage given count as no markers', () => {
    expect(cited('The keeper lights the lamp at dusk [9].')).toEqual([[1, 'overlap']]);
  });

  it('Chinese text is compared by character pairs, sentences ending in 。！？', () => {
    const zh = [
      { citation: { index: 1 }, text: '灯塔的灯在黄昏时由守塔人点亮。' },
      { citation: { index: 2 }, text: '酸面包需要用面粉和水喂养的酵头。' },
    ];
    expect(attributeCitations(zh, '酸面包需要酵头，用面粉和水喂养。', '').map((c) => c.index)).toEqual([2]);
    expect(attributeCitations(zh, '巴黎是法国的首都！', '')).toEqual([]);
    expect(contentTerms('面包')).toEqual(new Set(['面包']));
  });

  it('a Chinese answer sentence is credited to the Chinese passage it came from, by its words', () => {
    const zh = [
      { citation: { index: 1 }, text: '远程办公每周最多三天，需要与团队负责人商定。' },
      { citation: { index: 2 }, text: '设备补贴是一千二百欧元，用于购买办公桌和显示器。' },
      { citation: { index: 3 }, text: '停车场在地下一层，员工停车免费。' },
    ];
    expect(attributeCitations(zh, '员工可以获得一千二百欧元的设备补贴，用来买办公桌。', '设备补贴是多少？').map((c) => c.index)).toEqual([2]);
    expect(attributeCitations(zh, '我不知道设备补贴是多少。', '设备补贴是多少？')).toEqual([]);
    expect([...contentTerms('设备补贴是一千二百欧元。')]).toEqual(['设备', '补贴', '一千', '二百', '欧元']);
  });

  it('the sources shown are the marked ones and the attributed ones, each once', () => {
    const streamed = [{ index: 1 }, { index: 2 }, { index: 2, attribution: 'overlap' }];
    expect(shownCitations(streamed, 'No marks here.')).toEqual([{ index: 2, attribution: 'overlap' }]);
    expect(shownCitations(streamed, 'See [1].')).toEqual([{ index: 1 }, { index: 2, attribution: 'overlap' }]);
    expect(shownCitations([{ index: 1 }, { index: 2 }], 'Nothing cited.')).toEqual([]);
  });
});

describe('what attributing a long answer costs (issue 27: a runaway answer held the main thread at its end)', () => {
  const long = 'The keeper lights the lamp at dusk and trims the wick. Sourdough needs a starter fed with flour and water. Prune apple trees in late winter, before blossom. '
    + 'Another sentence about nothing in particular goes here. '.repeat(5000);

  it('an answer with no passages to credit examines none of its sentences', () => {
    const work = { sentences: 0 };
    expect(attributeCitations([], long, 'anything', work)).toEqual([]);
    expect(work.sentences).toBe(0);
  });

  it('once every passage is credited the rest of the answer is not examined', () => {
    const work = { sentences: 0 };
    expect(attributeCitations(sources, long, '', work).map((c) => c.index)).toEqual([1, 2, 3]);
    expect(work.sentences).toBe(3);
  });

  it('an answer crediting only some passages is examined to its end, as before', () => {
    const work = { sentences: 0 };
    const partial = 'The keeper lights the lamp at dusk and trims the wick. ' + 'Another sentence about nothing in particular goes here. '.repeat(50);
    expect(attributeCitations(sources, partial, '', work).map((c) => c.index)).toEqual([1]);
    expect(work.sentences).toBe(51);
  });
});
