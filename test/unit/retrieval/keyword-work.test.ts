import { afterEach, describe, expect, it } from 'vitest';
import { keywordQuestion, keywordRanking } from '../../../main/search/keyword/keyword.js';
import { layOut, runPiece } from '../../../main/search/keyword/layout.js';
import { rankResults } from '../../../main/search/keyword/rescore.js';
import { halvesOf, type KeywordOptions } from '../../../main/search/keyword/plan.js';
import type { ChunkReader, KbRange, ScoredId } from '../../../main/db/repositories/chunks.js';
import { DOCUMENTS } from '../../fixtures/corpus/documents.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
/** A search laid out, as keyword.ts and the keyword thread lay it out. */
const workOf = (chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions, split: boolean) =>
  layOut(chunks, keywordQuestion(ranges, text, limit, options), split);
afterEach(() => open.splice(0).forEach((r) => r.close()));

/** Four knowledge bases, each holding a share of the corpus; A and B are neighbours, C sits between B and D. */
function fourKbs(options: Parameters<typeof retrievalDb>[0] = {}) {
  const r = retrievalDb(options);
  open.push(r);
  const kbs = ['A', 'B', 'C', 'D'].map((name) => r.addKb(name));
  DOCUMENTS.forEach((d, i) => r.addDocument(kbs[i % 4]!, d.key, d.text));
  // Again, so that every knowledge base holds the same words more than once.
  DOCUMENTS.forEach((d, i) => r.addDocument(kbs[(i + 1) % 4]!, `again/${d.key}`, d.text));
  return { r, kbs };
}

const QUESTIONS = [
  'Why does heat make the honey ferment in the hive?',
  'How do the tides and the moon and the glaciers change the water?',
  'What is the rule of 72 for compound interest?',
  'git branches and merge commits',
  'the of and',
];

/** Plain bm25 pruned every way the planner can: ranked with boosts, nudges, conjunctive, unranked. */
const SETTINGS: KeywordOptions[] = [{}, { scoreBudget: 6, maxBoostDf: 8 }, { scoreBudget: 0 }, { idfBudget: 0 }];

describe('a keyword search laid out in queries that two threads can share', () => {
  // With the ranking extension (document frequencies given) and without it (FTS5 counts them): the plans differ, the sharing must not.
  it.each([
    { extension: 'given', options: {}, modes: ['conjunctive', 'none', 'ranked'] },
    { extension: 'counted by FTS5', options: { rankingExtension: false as const }, modes: ['conjunctive', 'none', 'ranked', 'unranked'] },
  ])('ranks the same whichever thread runs which query, in any order, with its spans halved (document frequencies $extension)', ({ options: opening, modes }) => {
    const { r, kbs } = fourKbs(opening);
    expect(r.chunks.dfGiven).toBe(opening.rankingExtension !== false);
    // A and B merge into one span; D is its own, as C lies between.
    const ranges = r.chunks.kbRanges([kbs[0]!, kbs[1]!, kbs[3]!]);
    const seen = { modes: new Set<string>(), boosted: 0, nudged: 0, halved: 0 };
    for (const options of SETTINGS) {
      for (const text of QUESTIONS) {
        const whole = keywordRanking(r.chunks, ranges, text, 10, options);
        const unsplit = workOf(r.chunks, ranges, text, 10, options, false);
        const work = workOf(r.chunks, ranges, text, 10, { ...options, splitChunks: 1 }, true);
        seen.modes.add(work.plan.mode);
        if (work.plan.boost.length > 0) seen.boosted++;
        if (work.plan.nudge.length > 0) seen.nudged++;
        // Some queries are halved where that pays (the unranked ones, cheap, never).
        expect(work.pieces.length).toBeGreaterThanOrEqual(unsplit.pieces.length);
        if (work.pieces.length > unsplit.pieces.length) seen.halved++;
        if (work.plan.mode === 'unranked') expect(work.pieces).toEqual(unsplit.pieces);
        // Run last first, as if another thread had taken the first ones.
        const results: ScoredId[][] = [];
        for (let i = work.pieces.length - 1; i >= 0; i--) results[i] = runPiece(r.chunks, work.plan, work.pieces[i]!);
        expect(rankResults(r.chunks, work, results)).toEqual(whole);
      }
    }
    // The settings reached every way of ranking (with the document frequencies given, a conjunction is always ranked), so each was compared.
    expect([...seen.modes].sort()).toEqual(modes);
    expect(seen.boosted).toBeGreaterThan(0);
    expect(seen.nudged).toBeGreaterThan(0);
    expect(seen.halved).toBeGreaterThan(0);
  });

  it('halves a span where its chunks are, and each half scores at most half the cap', () => {
    const { r, kbs } = fourKbs();
    const [a, b] = r.chunks.kbRanges([kbs[0]!, kbs[1]!]);
    const span = { ...a!, hi: b!.hi, inserted: a!.inserted + b!.inserted, filled: [{ lo: a!.lo, inserted: a!.inserted }, { lo: b!.lo, inserted: b!.inserted }] };
    const [older, newer] = halvesOf(span);
    // Halfway through the chunks the two knowledge bases hold, not halfway through their id ranges (mostly empty).
    const count = (lo: number, hi: number) => (r.db.prepare('SELECT count(*) AS n FROM chunks WHERE id BETWEEN ? AND ?').get(lo, hi) as { n: number }).n;
    expect(older![0]).toBe(span.lo);
    expect(newer![1]).toBe(span.hi);
    expect(newer![0]).toBe(older![1] + 1);
    expect(Math.abs(count(...older!) - count(...newer!))).toBeLessThanOrEqual(1);
    expect(count(...older!) + count(...newer!)).toBe(span.inserted);

    const work = workOf(r.chunks, [a!], QUESTIONS[0]!, 10, { splitChunks: 1, maxScoredPerKb: 9 }, true);
    expect(work.pieces.map((p) => p.cap)).toEqual(work.pieces.map(() => 5));
    // Below splitChunks, a span is queried whole, with the whole cap.
    const small = workOf(r.chunks, [a!], QUESTIONS[0]!, 10, { splitChunks: a!.inserted + 1, maxScoredPerKb: 9 }, true);
    expect(small.pieces.map((p) => [p.lo, p.hi, p.cap])).toEqual(small.pieces.map(() => [a!.lo, a!.hi, 9]));
  });
});
