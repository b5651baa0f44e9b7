import { afterEach, describe, expect, it } from 'vitest';
import { planKeyword, searchKeyword } from '../../../main/search/index.js';
import { rescore } from '../../../main/search/keyword/rescore.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
afterEach(() => open.splice(0).forEach((r) => r.close()));

/** Chunks spelling the terms every way the index folds together, and some it does not. */
const HOSTILE = [
  'The ZEPPELIN crossed the Café Élan twice: running, runs and Running again.',
  'Zeppelins, a café, and one runner who was running late; runways are not runs.',
  'A zeppelin 🚀 over the cafe, café, CAFÉ; the run ran on. Happy, happily, HAPPINESS.',
  'Zeppelin-runningrunning café-élan élans ÉLAN élan running. Relational, relate, relating.',
  'No term here at all, only 🚀 emoji and ümlauts; unhappy and rerun are other words.',
  'Rerunning a zeppelin is not running it; the rerun ran. Élancourt is a town.',
  'happy happy happy zeppelin',
];
const FILLER = 'plain words about nothing in particular for length';

function hostileDb() {
  const r = retrievalDb();
  open.push(r);
  const kb = r.addKb('Hostile');
  HOSTILE.forEach((text, i) => r.addDocument(kb, `t${i}.md`, text));
  // Chunks without the terms (one longer), so that the terms weigh something and lengths vary.
  for (let i = 0; i < 40; i++) r.addDocument(kb, `filler${i}.md`, `${FILLER} number ${i}.${i === 0 ? ` ${FILLER.repeat(6)}` : ''}`);
  return { ...r, kb };
}

describe('rescore', () => {
  it('adds each term’s exact bm25 part, however a chunk spells it (case, diacritics, stems, longer words, emoji)', () => {
    const r = hostileDb();
    const ids = (r.db.prepare('SELECT id FROM chunks ORDER BY id').all() as Array<{ id: number }>).map((x) => x.id);
    // One term alone: FTS5's bm25 is exactly that term's part.
    const part = r.db.prepare<[string, bigint], { s: number }>('SELECT bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
    const plan = planKeyword(r.chunks, 'zeppelin café running élan happiness relational', r.chunks.kbRanges([r.kb]), { maxTerms: 0, maxNudgeTerms: 12 });
    const terms = [...plan.select, ...plan.boost, ...plan.nudge, ...plan.dropped];
    expect(terms.map((t) => t.stems[0]).sort()).toEqual(['cafe', 'elan', 'happi', 'relat', 'run', 'zeppelin']);
    const got = rescore(r.chunks, ids.map((id) => ({ id, score: 0.5 })), terms, ids.length, ids.length);
    let holding = 0;
    for (const { id, score } of got) {
      const expected = terms.reduce((n, t) => n - (part.get(t.fts, BigInt(id))?.s ?? 0), 0.5);
      if (expected > 0.5) holding++;
      expect(score, (r.db.prepare('SELECT text FROM chunks WHERE id = ?').get(id) as { text: string }).text).toBeCloseTo(expected, 9);
    }
    expect(holding).toBe(HOSTILE.length - 1);
  });

  it('reads the best candidates first and stops once none left can reach the top', () => {
    const r = hostileDb();
    const ids = (r.db.prepare('SELECT id FROM chunks ORDER BY id').all() as Array<{ id: number }>).map((x) => x.id);
    const plan = planKeyword(r.chunks, 'zeppelin', r.chunks.kbRanges([r.kb]));
    const term = [...plan.select, ...plan.boost, ...plan.nudge][0];
    // The first candidate is far ahead: no term can lift another past it, so only it is read.
    const candidates = ids.map((id, i) => ({ id, score: i === 0 ? 100 : 1 }));
    const got = rescore(r.chunks, candidates, [term!], 1, ids.length);
    expect(got.filter((c) => c.score !== 1 && c.score !== 100)).toHaveLength(1);
    // A candidate behind can still overtake by holding the term: it is read.
    const filler = (r.db.prepare("SELECT id FROM chunks WHERE text LIKE 'plain words%' LIMIT 1").get() as { id: number }).id;
    const part = r.db.prepare<[string, bigint], { s: number }>('SELECT bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
    const best = ids.reduce((a, id) => Math.max(a, -(part.get(term!.fts, BigInt(id))?.s ?? 0)), 0);
    expect(best).toBeGreaterThan(0.5);
    const behind = [{ id: filler, score: 1.5 }, ...ids.filter((id) => id !== filler).map((id) => ({ id, score: 1 }))];
    const top = rescore(r.chunks, behind, [term!], 1, ids.length).sort((a, b) => b.score - a.score)[0]!;
    expect(top.score).toBeCloseTo(1 + best, 9);
    // Within the depth only, whatever the scores.
    const flat = rescore(r.chunks, ids.map((id) => ({ id, score: 1 })), [term!], ids.length, 3);
    expect(flat.slice(3).every((c) => c.score === 1)).toBe(true);
  });

  it('ranks a nudging term exactly like bm25 among the chunks holding a selecting one', () => {
    const r = hostileDb();
    const exhaustive = r.db.prepare<[string], { id: number; s: number }>('SELECT rowid AS id, bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s');
    const holds = r.db.prepare<[string, bigint], { id: number }>('SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
    // The rarest term selects; nothing boosts, so every other term's part comes from rescore.ts.
    const options = { maxTerms: 1, maxBoostDf: 0, maxNudgeTerms: 12, nudgeDepth: 1_000 };
    for (const text of ['zeppelin café running', 'élan run zeppelin', 'happiness relational runs', 'ZEPPELINS runners élans happy']) {
      const plan = planKeyword(r.chunks, text, r.chunks.kbRanges([r.kb]), options);
      expect(plan.nudge.length, text).toBeGreaterThan(0);
      const select = plan.select.map((t) => t.fts).join(' OR ');
      const expected = exhaustive.all([...plan.select, ...plan.nudge].map((t) => t.fts).join(' OR ')).filter((row) => holds.get(select, BigInt(row.id)));
      const got = searchKeyword(r, { kb_ids: [r.kb], text, limit: 10 }, options);
      expect(got.map((h) => h.chunk_id), text).toEqual(expected.slice(0, 10).map((e) => e.id));
      got.forEach((h, k) => expect(h.score, `${text}: ${h.text}`).toBeCloseTo(-expected[k]!.s, 9));
    }
  });
});
