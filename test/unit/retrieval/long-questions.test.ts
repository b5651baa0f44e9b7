import { afterEach, describe, expect, it } from 'vitest';
import { planKeyword, searchKeyword } from '../../../main/search/index.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

/**
 * Issue #28: a long question (a pasted paragraph, an agent's query) ranks with all of its terms
 * where the corpus makes that affordable, not with its 12 rarest. Twelve words each in one
 * chunk of its own, and four words each in two chunks: the one document holding the four is
 * what the question is about, and it holds none of the twelve rarer words.
 */
const RARE = 'abcdefghijkl'.split('').map((c) => `zorb${c}x`);
const LATER = 'abcd'.split('').map((c) => `mumb${c}x`);
const QUESTION = [...RARE, ...LATER].join(' ');

const open: RetrievalDb[] = [];
afterEach(() => open.splice(0).forEach((r) => r.close()));

function corpus(rankingExtension: boolean) {
  const r = retrievalDb(rankingExtension ? {} : { rankingExtension: false });
  open.push(r);
  const kb = r.addKb('Long questions');
  RARE.forEach((word, i) => r.addDocument(kb, `rare-${i}.md`, `A note on ${word} by the river stone.`));
  LATER.forEach((word, i) => r.addDocument(kb, `single-${i}.md`, `A note on ${word} by the cloud stone.`));
  const target = r.addDocument(kb, 'target.md', `What ${LATER.join(' and ')} have in common, by the river.`);
  return { r, kb, target };
}

describe('long questions (issue #28)', () => {
  it.each([
    ['given document frequencies (the ranking extension)', true],
    ['FTS5 counting the IDFs', false],
  ])('finds a document matching only the question’s 13th-and-later rare terms, %s', (_, rankingExtension) => {
    const { r, kb, target } = corpus(rankingExtension);
    expect(r.chunks.dfGiven).toBe(rankingExtension);
    const hits = searchKeyword(r, { kb_ids: [kb], text: QUESTION, limit: 5 });
    // Four of the question's words against one: the most relevant document by bm25 over all the words.
    expect(hits[0]?.artifact_id).toBe(target);
    const plan = planKeyword(r.chunks, QUESTION, r.chunks.kbRanges([kb]));
    expect([...plan.select, ...plan.boost].map((t) => t.word).sort()).toEqual([...RARE, ...LATER].sort());
  });

  it('boosts the rarest terms while their postings fit the budget; the commoner ones beyond it only nudge', () => {
    const { r, kb } = corpus(true);
    // Three rare terms select (a match each); the other nine rare ones add 9 postings, each LATER word 2.
    const plan = planKeyword(r.chunks, QUESTION, r.chunks.kbRanges([kb]), { scoreBudget: 3, postingsBudget: 12 });
    expect(plan.select.map((t) => t.word)).toEqual(RARE.slice(0, 3));
    expect(plan.boost.map((t) => t.word)).toEqual([...RARE.slice(3), LATER[0]]);
    expect(plan.nudge.map((t) => t.word)).toEqual(LATER.slice(1));
  });
});
