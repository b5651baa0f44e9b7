import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadVectorExtension, type Db } from '../../../main/db/connection.js';
import { createChunksRepo, slotOf } from '../../../main/search/chunks.js';
import {
  bm25Idf,
  indexEmbeddings,
  planKeyword,
  questionWords,
  querySpans,
  reciprocalRankFusion,
  searchHybrid,
  searchKeyword,
  snippetOf,
} from '../../../main/search/index.js';
import { DOCUMENTS } from '../../fixtures/corpus/documents.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { corpusDb, retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
const track = <T extends RetrievalDb>(r: T): T => {
  open.push(r);
  return r;
};
afterEach(() => open.splice(0).forEach((r) => r.close()));

const doc = (key: string) => DOCUMENTS.find((d) => d.key === key)!.text;
const countInKb = (r: RetrievalDb, kbId: string) => (r.db.prepare('SELECT count(*) AS n FROM chunks WHERE kb_id = ?').get(kbId) as { n: number }).n;
const textsOf = (r: RetrievalDb, artifactId: string) =>
  r.db.prepare('SELECT id, text FROM chunks WHERE artifact_id = ? ORDER BY ord').all(artifactId) as Array<{ id: number; text: string }>;
const integrity = (db: Db) => db.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)").run();

describe('chunks repository', () => {
  it('gives each knowledge base its own id range and counts chunks per knowledge base', () => {
    const r = track(retrievalDb());
    const a = r.addKb('A');
    const b = r.addKb('B');
    r.addDocument(a, 'one.md', doc('baking/sourdough.md'));
    r.addDocument(b, 'two.md', doc('earth/tides.md'));
    r.addDocument(a, 'three.md', doc('earth/glaciers.md'));
    expect(countInKb(r, a)).toBe(8);
    expect(countInKb(r, b)).toBe(4);
    expect(r.chunks.kbRanges(['kb_nope'])).toEqual([]);
    const slots = r.db.prepare('SELECT kb_id, id FROM chunks').all() as Array<{ kb_id: string; id: number }>;
    const slotA = r.chunks.kbRanges([a])[0]!.slot;
    for (const row of slots) expect(slotOf(row.id) === slotA).toBe(row.kb_id === a);
    integrity(r.db);
  });

  it('replaces an artifact’s chunks when it is indexed again, and checks its knowledge base', () => {
    const r = track(retrievalDb());
    const kb = r.addKb('A');
    const other = r.addKb('B');
    const art = r.addDocument(kb, 'doc.md', doc('baking/sourdough.md'));
    const before = textsOf(r, art).map((c) => c.id);
    const ids = r.chunks.replaceForArtifact(art, kb, [{ ord: 0, text: 'Completely new words about zeppelins.', location: { start: 0, end: 37 } }]);
    expect(ids).toHaveLength(1);
    expect(before).not.toContain(ids[0]);
    expect(textsOf(r, art).map((c) => c.text)).toEqual(['Completely new words about zeppelins.']);
    expect(searchKeyword(r, { kb_ids: [kb], text: 'sourdough starter', limit: 5 })).toEqual([]);
    expect(searchKeyword(r, { kb_ids: [kb], text: 'zeppelins', limit: 5 })).toHaveLength(1);
    expect(() => r.chunks.replaceForArtifact(art, other, [])).toThrow(/not in knowledge base/);
    expect(() => r.chunks.replaceForArtifact('art_missing', undefined, [])).toThrow(/No artifact/);
    integrity(r.db);
  });

  it('reads chunks’ token counts and the index’s totals as FTS5 keeps them (rowids across knowledge-base ranges)', () => {
    const r = track(retrievalDb());
    const a = r.addKb('A');
    const b = r.addKb('B');
    r.addDocument(a, 'bees.md', doc('nature/honeybees.md'));
    r.addDocument(b, 'tides.md', doc('earth/tides.md'));
    const rows = r.db.prepare('SELECT id, text FROM chunks ORDER BY id').all() as Array<{ id: number; text: string }>;
    // A chunk's tokens counted here as the unicode61 tokenizer splits these English texts (letters and digits), to compare with what FTS5 stored.
    const tokensByFts = (text: string) => text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    const read = r.chunks.chunkTokens([...rows.map((x) => x.id), 999_999_999]);
    expect(read).toHaveLength(rows.length);
    for (const row of rows) expect(read.find((x) => x.id === row.id)).toEqual({ id: row.id, text: row.text, tokens: tokensByFts(row.text) });
    expect(r.chunks.indexTotals()).toEqual({ rows: rows.length, tokens: rows.reduce((n, x) => n + tokensByFts(x.text), 0) });
    const [lo, hi] = [r.chunks.kbRanges([b])[0]!.lo, r.chunks.kbRanges([b])[0]!.hi];
    expect(r.chunks.matchIds('"queen"', lo, hi, 10)).toEqual([]);
    expect(r.chunks.matchIds('"moon"', lo, hi, 10).length).toBeGreaterThan(0);
  });

  it('stems words with the index’s own tokenizer and counts document frequencies, stored or live', () => {
    const c = track(corpusDb());
    expect(c.chunks.stems(['volcanoes', 'erupting', '—', 'Ünïcödé'])).toEqual([['volcano'], ['erupt'], [], ['unicod']]);
    const live = c.chunks.docFreq('volcano');
    expect(live).toBeGreaterThan(0);
    const refreshed = c.chunks.refreshTermStats(1);
    expect(refreshed.terms).toBeGreaterThan(500);
    expect(c.chunks.docFreq('volcano')).toBe(live);
    expect(c.chunks.docFreq('nosuchterm')).toBe(0);
    expect(c.chunks.refreshTermStatsIfStale()).toBe(false);
  });
});

describe('searchKeyword', () => {
  it('finds a word asked about before any file held it, once a file holding it is added', () => {
    const c = track(corpusDb());
    const query = { kb_ids: [c.kb], text: 'Who logged the zeppelin?', limit: 5 };
    expect(searchKeyword(c, query)).toEqual([]);
    c.addDocument(c.kb, 'logs/keeper.md', 'The lighthouse keeper logged a zeppelin over the harbour at dawn.');
    // One chunk more is far less than a tenth of the corpus: the count of a word that rare is never remembered.
    expect(searchKeyword(c, query).map((h) => h.artifact_key)).toEqual(['logs/keeper.md']);
  });

  it('never returns another knowledge base’s chunks', () => {
    const r = track(retrievalDb());
    const a = r.addKb('A');
    const b = r.addKb('B');
    const c = r.addKb('C');
    // The same documents in A and B, others in C: only the kb filter tells them apart.
    for (const d of DOCUMENTS.slice(0, 8)) {
      r.addDocument(a, d.key, d.text);
      r.addDocument(b, d.key, d.text);
    }
    for (const d of DOCUMENTS.slice(8)) r.addDocument(c, d.key, d.text);
    const question = 'How do bees and volcanoes and git branches work?';
    const onlyA = searchKeyword(r, { kb_ids: [a], text: question, limit: 50 });
    expect(onlyA.length).toBeGreaterThan(3);
    expect(onlyA.every((h) => h.kb_id === a)).toBe(true);
    const onlyB = searchKeyword(r, { kb_ids: [b], text: question, limit: 50 });
    expect(onlyB.map((h) => h.artifact_key)).toEqual(onlyA.map((h) => h.artifact_key));
    expect(onlyB.every((h) => h.kb_id === b)).toBe(true);
    const ac = searchKeyword(r, { kb_ids: [a, c], text: 'tides glaciers sourdough', limit: 50 });
    expect(new Set(ac.map((h) => h.kb_id))).toEqual(new Set([a, c]));
    expect(searchKeyword(r, { kb_ids: [c], text: 'sourdough starter', limit: 10 })).toEqual([]);
    expect(searchKeyword(r, { kb_ids: ['kb_unknown'], text: 'sourdough', limit: 10 })).toEqual([]);
    expect(searchKeyword(r, { kb_ids: [], text: 'sourdough', limit: 10 })).toEqual([]);
    // A and C are not neighbours (B sits between them): two spans; A and B merge into one.
    expect(querySpans(r.chunks, r.chunks.kbRanges([a, c]))).toHaveLength(2);
    expect(querySpans(r.chunks, r.chunks.kbRanges([a, b]))).toHaveLength(1);
  });

  it('returns hits with the artifact key, a snippet around the terms and the location', () => {
    const c = track(corpusDb());
    const [hit] = searchKeyword(c, { kb_ids: [c.kb], text: 'What is the rule of 72?', limit: 1 });
    expect(hit).toMatchObject({ kb_id: c.kb, artifact_key: 'finance/compound-interest.md', artifact_id: c.artifactByKey.get('finance/compound-interest.md') });
    expect(hit!.snippet).toMatch(/rule of 72/);
    expect(hit!.snippet.split(/\s+/).length).toBeLessThanOrEqual(34);
    expect(hit!.text).toContain(hit!.snippet.replace(/^…|…$/g, ''));
    const source = doc('finance/compound-interest.md');
    expect(source.slice(hit!.location.start, hit!.location.end).trim()).toBe(hit!.text);
    expect(hit!.score).toBeGreaterThan(0);
  });

  it('ranks by bm25, best first, and honours the limit', () => {
    const c = track(corpusDb());
    const hits = searchKeyword(c, { kb_ids: [c.kb], text: 'glacier ice melting', limit: 4 });
    expect(hits).toHaveLength(4);
    expect(hits[0]!.artifact_key).toBe('earth/glaciers.md');
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(searchKeyword(c, { kb_ids: [c.kb], text: 'glacier', limit: 0 })).toEqual([]);
  });

  it('finds nothing for a question of stop words only, rather than everything', () => {
    const c = track(corpusDb());
    for (const text of ['What is it?', 'How do I do that?', 'Why would they be there and not here?', '', '   ', '?!']) {
      expect(searchKeyword(c, { kb_ids: [c.kb], text, limit: 10 })).toEqual([]);
    }
    expect(questionWords('What is the Calvin cycle?').words).toEqual(['calvin', 'cycle']);
  });

  it('never lets a question be FTS5 syntax', () => {
    const c = track(corpusDb());
    const nasty = [
      '"',
      '""',
      '"unbalanced quote about bees',
      "it's O'Brien's",
      '*',
      'bee*',
      '* OR *',
      'NEAR(honey bees, 2)',
      'honey NEAR bees',
      'NEAR',
      'AND',
      'OR',
      'NOT',
      'bees NOT honey',
      'AND OR NOT',
      '-bees',
      'bees -honey',
      '--',
      '(',
      ')',
      '((bees)',
      'text: bees',
      '{text}: bees',
      'col:val',
      '^bees',
      '+bees',
      'bees + honey',
      'a\u0000b',
      '🐝🍯 honeybees 🐝',
      '蜜蜂 的 蜂蜜',
      'نحل وعسل',
      'Ünïcödé çafé naïve',
      'e\u0301te\u0301',
      'zero\u200bwidth',
      'x'.repeat(10_000),
      Array.from({ length: 500 }, (_, i) => `word${i}`).join(' '),
      '\\"; DROP TABLE chunks; --',
    ];
    for (const text of nasty) {
      expect(() => searchKeyword(c, { kb_ids: [c.kb], text, limit: 5 }), text.slice(0, 40)).not.toThrow();
    }
    expect(searchKeyword(c, { kb_ids: [c.kb], text: '"(honeybees* -swarming) AND', limit: 1 })[0]?.artifact_key).toBe('nature/honeybees.md');
    expect(searchKeyword(c, { kb_ids: [c.kb], text: 'NEAR(varroa mites)', limit: 1 })[0]?.artifact_key).toBe('nature/honeybees.md');
    expect(c.db.prepare('SELECT count(*) AS n FROM chunks').get()).toEqual({ n: expect.any(Number) });
  });

  it('keeps the index consistent on delete: a deleted artifact’s text is never found', () => {
    const r = track(retrievalDb());
    const kb = r.addKb('A');
    const bees = r.addDocument(kb, 'bees.md', doc('nature/honeybees.md'));
    const tides = r.addDocument(kb, 'tides.md', doc('earth/tides.md'));
    const coffee = r.addDocument(kb, 'coffee.md', doc('food/coffee-roasting.md'));
    const find = (text: string) => searchKeyword(r, { kb_ids: [kb], text, limit: 10 });
    expect(find('varroa mites swarming')).not.toEqual([]);

    // Re-indexed with no chunks.
    expect(r.chunks.replaceForArtifact(bees, kb, [])).toEqual([]);
    expect(find('varroa mites swarming queen')).toEqual([]);
    integrity(r.db);

    // Cascaded from the artifact row.
    r.db.prepare('DELETE FROM artifacts WHERE id = ?').run(tides);
    expect(find('neap spring tides Fundy')).toEqual([]);
    integrity(r.db);

    // Cascaded from the dataset, through its knowledge base.
    expect(find('roast caffeine crack')).not.toEqual([]);
    r.db.prepare('DELETE FROM datasets WHERE id = (SELECT dataset_id FROM knowledge_bases WHERE id = ?)').run(kb);
    expect(r.db.prepare('SELECT count(*) AS n FROM chunks WHERE artifact_id = ?').get(coffee)).toEqual({ n: 0 });
    expect(r.db.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'caffeine'").get()).toEqual({ n: 0 });
    integrity(r.db);
  });

  it.each([
    { dfs: 'given (the ranking extension)', options: {} },
    { dfs: 'counted by FTS5', options: { rankingExtension: false as const } },
  ])('prunes common terms by document frequency yet ranks exactly like bm25 among the chunks holding a selecting term, document frequencies $dfs', ({ options: opening }) => {
    const c = track(corpusDb(opening));
    const ranges = c.chunks.kbRanges([c.kb]);
    const exhaustive = c.db.prepare<[string, number], { id: number; s: number }>(
      'SELECT rowid AS id, bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?',
    );
    // BigInt: FTS5 ignores a REAL `rowid = ?`, and better-sqlite3 binds numbers as REAL.
    const holds = c.db.prepare<[string, bigint], { id: number }>('SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
    // Tiny budgets: one rare term selects, the others only boost.
    const options = { scoreBudget: 3, idfBudget: 60, maxNudgeTerms: 0 };
    let checked = 0;
    for (const text of ['Why do water and heat shape glaciers and tides?', 'How does temperature change coffee beans and sourdough bread?', 'Energy stored in batteries, sugar and glycogen']) {
      const plan = planKeyword(c.chunks, text, ranges, options);
      expect(plan.mode).toBe('ranked');
      expect(plan.boost.length).toBeGreaterThan(0);
      const select = plan.select.map((t) => t.fts).join(' OR ');
      const all = [...plan.select, ...plan.boost].map((t) => t.fts).join(' OR ');
      const expected = exhaustive
        .all(all, 1000)
        .filter((row) => holds.get(select, BigInt(row.id)))
        .slice(0, 5);
      const got = searchKeyword(c, { kb_ids: [c.kb], text, limit: 5 }, options);
      expect(got.map((h) => h.chunk_id)).toEqual(expected.map((e) => e.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(-expected[i]!.s, 9));
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('plans: rarest terms select, the next boost, too-common ones nudge, very common ones drop (FTS5 counting the IDFs)', () => {
    const c = track(corpusDb({ rankingExtension: false }));
    expect(c.chunks.dfGiven).toBe(false);
    const ranges = c.chunks.kbRanges([c.kb]);
    const plan = planKeyword(c.chunks, 'water temperature glycogen heat energy', ranges, { scoreBudget: 2, idfBudget: 12 });
    expect(plan.select.map((t) => t.word)).toEqual(['glycogen']);
    expect(plan.mode).toBe('ranked');
    for (const t of [...plan.boost, ...plan.nudge]) expect(t.df).toBeGreaterThanOrEqual(plan.select[0]!.df);
    expect(plan.boost.length + plan.nudge.length + plan.dropped.length).toBe(4);
    // A term in more chunks than maxBoostDf never boosts, however affordable: it nudges (or drops).
    const text = 'water temperature glycogen heat energy';
    const open = planKeyword(c.chunks, text, ranges, { scoreBudget: 2, idfBudget: 1e9 });
    expect(open.boost.length).toBeGreaterThan(1);
    const cap = Math.min(...open.boost.map((t) => t.df));
    const capped = planKeyword(c.chunks, text, ranges, { scoreBudget: 2, idfBudget: 1e9, maxBoostDf: cap });
    expect(capped.boost.map((t) => t.word)).toEqual(open.boost.filter((t) => t.df <= cap).map((t) => t.word));
    expect(capped.nudge.map((t) => t.word)).toEqual(expect.arrayContaining(open.boost.filter((t) => t.df > cap).map((t) => t.word)));
    const common = planKeyword(c.chunks, 'water heat', ranges, { scoreBudget: 1, idfBudget: 1 });
    expect(common.mode).toBe('unranked');
    const hits = searchKeyword(c, { kb_ids: [c.kb], text: 'water heat', limit: 10 }, { scoreBudget: 1, idfBudget: 1 });
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.text.toLowerCase()).toMatch(/water/);
    expect(bm25Idf(100, 50)).toBe(1e-6);
    expect(bm25Idf(100, 1)).toBeCloseTo(Math.log(99.5 / 1.5), 12);
  });

  it('plans with the document frequencies given (the ranking extension): nothing is counted, so every term boosts and a conjunction is ranked', () => {
    const c = track(corpusDb());
    expect(c.chunks.dfGiven).toBe(true);
    const ranges = c.chunks.kbRanges([c.kb]);
    const text = 'water temperature glycogen heat energy';
    // The budgets that made these terms nudge, drop or go unranked when FTS5 counted (the test above) no longer apply.
    const plan = planKeyword(c.chunks, text, ranges, { scoreBudget: 2, idfBudget: 12, maxBoostDf: 1 });
    expect(plan.select.map((t) => t.word)).toEqual(['glycogen']);
    expect(plan.boost.map((t) => t.word).sort()).toEqual(['energy', 'heat', 'temperature', 'water']);
    expect([...plan.nudge, ...plan.dropped]).toEqual([]);
    // What scoring costs is still budgeted: too many matches to select with make a conjunction, bm25-ranked.
    const common = planKeyword(c.chunks, 'heat energy', ranges, { scoreBudget: 1, idfBudget: 1 });
    expect(common.mode).toBe('conjunctive');
    const hits = searchKeyword(c, { kb_ids: [c.kb], text: 'heat energy', limit: 10 }, { scoreBudget: 1, idfBudget: 1 });
    const exact = c.db
      .prepare<[], { id: number; s: number }>(`SELECT rowid AS id, bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH '"heat" AND "energy"' ORDER BY s, rowid DESC LIMIT 10`)
      .all();
    expect(exact.length).toBeGreaterThan(1);
    expect(hits.map((h) => h.chunk_id)).toEqual(exact.map((e) => e.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(-exact[i]!.s, 9));
  });
});

describe('snippetOf', () => {
  it('picks the window with the most distinct terms and marks cuts with ellipses', () => {
    const text = 'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon';
    const terms = [
      { word: 'lambda', stems: ['lambda'] },
      { word: 'nu', stems: ['nu'] },
    ];
    const s = snippetOf(text, terms, 6);
    expect(s).toMatch(/^…/);
    expect(s).toMatch(/…$/);
    expect(s).toContain('lambda mu nu');
    expect(snippetOf('short text', terms, 6)).toBe('short text');
  });
});

describe('reciprocal rank fusion', () => {
  it('sums 1 / (k + rank) over the lists', () => {
    const fused = reciprocalRankFusion([
      [1, 2, 3],
      [3, 2, 4],
    ]);
    // 3: 1/63 + 1/61 = 0.0322664…, 2: 2/62 = 0.0322581…, 1: 1/61, 4: 1/63.
    expect(fused.map((f) => f.id)).toEqual([3, 2, 1, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(2 / 62, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 61, 12);
    // Ties: better single rank first.
    expect(reciprocalRankFusion([[7, 8], [8, 7]]).map((f) => f.id)).toEqual([8, 7]);
    expect(reciprocalRankFusion([[5], [6]], 1).map((f) => f.score)).toEqual([0.5, 0.5]);
  });
});

describe('hybrid search', () => {
  it('loads sqlite-vec here, where the connection opens', () => {
    const r = track(retrievalDb());
    expect(r.chunks.vectorsAvailable()).toBe(true);
    expect((r.db.prepare('SELECT vec_version() AS v').get() as { v: string }).v).toMatch(/^v0\./);
  });

  it('fuses keyword and vector rankings by reciprocal rank (k = 60)', async () => {
    const c = track(corpusDb());
    const embed = hashedEmbedder(64);
    expect(await indexEmbeddings(c, embed, { model: 'hashed-64' })).toBe(countInKb(c, c.kb));
    expect(await indexEmbeddings(c, embed, { model: 'hashed-64' })).toBe(0);
    const text = 'Why does heat make the honey ferment in the hive?';
    const candidates = 30;
    const keyword = searchKeyword(c, { kb_ids: [c.kb], text, limit: candidates }).map((h) => h.chunk_id);
    const [vector] = await embed([text]);
    const slot = c.chunks.kbRanges([c.kb])[0]!.slot;
    // Hashed bag-of-words vectors tie often: equal distances go newest first, as searchRanked orders them.
    const nearest = c.chunks
      .knn(Float32Array.from(vector!), slot, candidates)
      .sort((a, b) => a.distance - b.distance || b.id - a.id)
      .map((n) => n.id);
    const expected = reciprocalRankFusion([keyword, nearest]).slice(0, 8);
    const hybrid = await searchHybrid(c, { kb_ids: [c.kb], text, limit: 8 }, embed, { candidates });
    expect(hybrid.map((h) => h.chunk_id)).toEqual(expected.map((e) => e.id));
    hybrid.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 12));
    expect(hybrid[0]!.artifact_key).toBe('nature/honeybees.md');
    // A chunk first in both lists gets 2 / 61.
    if (keyword[0] === nearest[0]) expect(hybrid[0]!.score).toBeCloseTo(2 / 61, 12);
    // Vector-only hits carry a snippet too.
    for (const h of hybrid) expect(h.snippet.length).toBeGreaterThan(0);
  });

  it('without an embedder, or when embedding fails or does not fit, is the keyword ranking', async () => {
    const c = track(corpusDb());
    const query = { kb_ids: [c.kb], text: 'How do mRNA vaccines train immunity?', limit: 5 };
    const keyword = searchKeyword(c, query);
    expect(await searchHybrid(c, query)).toEqual(keyword);
    // An embedder but no vector index yet.
    expect(await searchHybrid(c, query, hashedEmbedder(16))).toEqual(keyword);
    await indexEmbeddings(c, hashedEmbedder(16), { model: 'hashed-16' });
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const failing = async () => {
      throw new Error('upstream 503');
    };
    expect(await searchHybrid(c, query, failing, { log })).toEqual(keyword);
    expect(await searchHybrid(c, query, hashedEmbedder(8), { log })).toEqual(keyword);
    expect(lines).toEqual([expect.stringContaining('upstream 503'), expect.stringContaining('does not match the vector index')]);
  });

  it('re-embeds when the model changes, and forgets the vectors of deleted chunks', async () => {
    const r = track(retrievalDb());
    const kb = r.addKb('A');
    const bees = r.addDocument(kb, 'bees.md', doc('nature/honeybees.md'));
    r.addDocument(kb, 'tides.md', doc('earth/tides.md'));
    expect(await indexEmbeddings(r, hashedEmbedder(32), { model: 'm1' })).toBe(8);
    r.addDocument(kb, 'sleep.md', doc('health/sleep.md'));
    expect(await indexEmbeddings(r, hashedEmbedder(32), { model: 'm1' })).toBe(4);
    expect(await indexEmbeddings(r, hashedEmbedder(48), { model: 'm2' })).toBe(12);
    expect(r.chunks.vectorIndex()).toEqual({ model: 'm2', dimensions: 48 });
    const vectors = () => (r.db.prepare('SELECT count(*) AS n FROM chunk_vectors').get() as { n: number }).n;
    expect(vectors()).toBe(12);
    // Re-indexed without chunks, then deleted with its artifact row: their vectors go at the next search.
    r.chunks.replaceForArtifact(bees, kb, []);
    r.db.prepare("DELETE FROM artifacts WHERE key = 'tides.md'").run();
    const hits = await searchHybrid(r, { kb_ids: [kb], text: 'moon tides bees sleep', limit: 10 }, hashedEmbedder(48));
    expect(hits.every((h) => h.artifact_key === 'sleep.md')).toBe(true);
    expect(vectors()).toBe(4);
  });

  it('degrades to keyword-only, saying so once, where sqlite-vec cannot be loaded', async () => {
    const raw = new Database(':memory:');
    // The same connection, but loading extensions fails, as where no sqlite-vec binary fits.
    const db = new Proxy(raw, {
      get(target, key) {
        if (key === 'loadExtension') return () => {
          throw new Error('no binary for this platform');
        };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Db;
    const { migrate } = await import('../../../main/db/connection.js');
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    // What openDatabase does for every connection.
    expect(loadVectorExtension(db, log)).toBe(false);
    expect(loadVectorExtension(db, log)).toBe(false);
    migrate(db, ':memory:');
    const now = new Date().toISOString();
    db.exec(`INSERT INTO organizations VALUES ('o', 'O', '${now}');
             INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ('d', 'o', 'D', '${now}', '${now}');
             INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES ('k', 'd', '${now}');
             INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at) VALUES ('a', 'k', 'a.md', 'a.md', 1, 0, 'ready', '${now}', '${now}');`);
    const source = { chunks: createChunksRepo(db) };
    source.chunks.replaceForArtifact('a', undefined, [{ ord: 0, text: 'Glaciers retreat as the climate warms.', location: { start: 0, end: 38 } }]);
    expect(await indexEmbeddings(source, hashedEmbedder(8), { model: 'm', log })).toBe(0);
    // A vector index configured by another connection that could load it.
    db.prepare("INSERT INTO chunk_vector_index (id, model, dimensions, created_at) VALUES (1, 'm', 8, 'now')").run();
    const hits = await searchHybrid(source, { kb_ids: ['k'], text: 'glaciers', limit: 3 }, hashedEmbedder(8), { log });
    expect(hits.map((h) => h.artifact_key)).toEqual(['a.md']);
    expect(lines).toEqual([expect.stringMatching(/sqlite-vec could not be loaded \(no binary for this platform\): vector search is off, retrieval ranks by keywords only/)]);
    raw.close();
  });
});
