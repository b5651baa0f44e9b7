import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasRankingExtension, loadRankingExtension, openDatabase, openReadOnlyDatabase, RANKING_EXTENSION } from '../../../main/db/connection.js';
import { keywordRanking } from '../../../main/search/keyword/keyword.js';
import { seededRandom } from '../../../main/core/platform/seeded-random.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

const open: Array<{ close(): void }> = [];
afterEach(() => open.splice(0).reverse().forEach((r) => r.close()));

// Words of every length, some folding together (café / cafe / CAFÉ), some stemming together (run / running / runs).
const VOCABULARY = ['café', 'cafe', 'CAFÉ', 'run', 'running', 'runs', 'tide', 'tides', 'glacier', 'honey', 'hive', 'water', 'heat', 'moon', 'bread', 'ferment', 'naïve', 'zebra', 'quartz', 'xylem'];

/** Two knowledge bases of generated paragraphs: a few words are common, most rare (Zipf-like), some repeated within a paragraph. */
function generated(seed: number, options: Parameters<typeof retrievalDb>[0] = {}) {
  const rand = seededRandom(seed);
  const r = retrievalDb(options);
  open.push(r);
  const kbs = [r.addKb('One'), r.addKb('Two')];
  for (let d = 0; d < 24; d++) {
    const paragraphs = Array.from({ length: 1 + Math.floor(rand() * 5) }, () =>
      Array.from({ length: 3 + Math.floor(rand() * 40) }, () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 2.5)]!).join(' '),
    );
    r.addDocument(kbs[d % 2]!, `doc-${d}.md`, paragraphs.join('\n\n'));
  }
  return { r, kbs, rand };
}

/**
 * FTS5's own bm25, and parley_bm25 given the document frequencies FTS5 counts, over the same
 * matches: `given` the first time parley_bm25 sees these rows on this connection (it reads their
 * lengths), `again` the second (it remembers them).
 */
function bothWays(r: RetrievalDb, match: string, terms: readonly string[], lo: number, hi: number) {
  const dfs = terms.map((term) => (r.db.prepare('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?').get(`"${term}"`) as { n: number }).n);
  const sql = (score: string) => `SELECT rowid AS id, ${score} AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid`;
  const fts5 = r.db.prepare(sql('bm25(chunks_fts)')).all(match, BigInt(lo), BigInt(hi));
  const ours = r.db.prepare(sql(`parley_bm25(chunks_fts${', ?'.repeat(terms.length)})`));
  const given = ours.all(...dfs, match, BigInt(lo), BigInt(hi));
  const again = ours.all(...dfs, match, BigInt(lo), BigInt(hi));
  return { fts5, given, again };
}

/** Random queries of 1–4 vocabulary words, in every shape keyword search makes: OR, AND, and its boosting shape (a OR b) AND (c OR d). */
function* queries(rand: () => number, count: number): Generator<{ terms: string[]; match: string }> {
  for (let q = 0; q < count; q++) {
    const terms = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!))];
    const quoted = terms.map((t) => `"${t}"`);
    yield { terms, match: quoted.join(' OR ') };
    yield { terms, match: quoted.join(' AND ') };
    if (quoted.length > 2) yield { terms, match: `(${quoted.slice(0, 2).join(' OR ')}) AND (${quoted.slice(2).join(' OR ')})` };
  }
}

describe('the ranking extension (parley_bm25: FTS5 bm25 given the document frequencies)', () => {
  it('is built and loads on both kinds of connection', () => {
    const r = retrievalDb();
    open.push(r);
    // `npm run build` makes it (scripts/build-native.mjs); without it keyword search still works, only slower.
    expect(hasRankingExtension(r.db), `${RANKING_EXTENSION} did not load: run npm run build`).toBe(true);
    const reader = openReadOnlyDatabase(r.db.name);
    open.push(reader);
    expect(hasRankingExtension(reader)).toBe(true);
  });

  it('scores exactly as FTS5 bm25 does, to the last bit, for every kind of query and range', () => {
    for (const seed of [1, 2, 3]) {
      const { r, kbs, rand } = generated(seed);
      const [one, two] = r.chunks.kbRanges(kbs);
      const ranges = [one!, two!, { lo: one!.lo, hi: two!.hi }];
      let compared = 0;
      let q = 0;
      for (const { terms, match } of queries(rand, 30)) {
        const range = ranges[q++ % ranges.length]!;
        const { fts5, given, again } = bothWays(r, match, terms, range.lo, range.hi);
        expect(given).toEqual(fts5);
        expect(again).toEqual(fts5);
        compared += fts5.length;
      }
      // Enough rows matched for the comparison to mean something.
      expect(compared).toBeGreaterThan(200);
    }
  });

  it('remembers row lengths only while they hold: exact after files are replaced, removed and added, and for a row too long to remember', () => {
    const { r, kbs, rand } = generated(6);
    const [one, two] = r.chunks.kbRanges(kbs);
    const all = { lo: one!.lo, hi: two!.hi };
    const exactEverywhere = () => {
      let compared = 0;
      for (const { terms, match } of queries(rand, 20)) {
        const { fts5, given, again } = bothWays(r, match, terms, all.lo, all.hi);
        expect(given).toEqual(fts5);
        expect(again).toEqual(fts5);
        compared += fts5.length;
      }
      expect(compared).toBeGreaterThan(100);
    };
    exactEverywhere();
    // Every row's length is remembered now. Replace some files' chunks (new ids, other lengths), remove one, add two.
    const artifacts = r.db.prepare('SELECT id FROM artifacts ORDER BY id').all() as Array<{ id: string }>;
    for (const { id } of artifacts.slice(0, 6)) {
      const text = Array.from({ length: 5 + Math.floor(rand() * 60) }, () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!).join(' ');
      r.chunks.replaceForArtifact(id, undefined, [{ ord: 0, text, location: { start: 0, end: text.length } }]);
    }
    r.db.prepare('DELETE FROM artifacts WHERE id = ?').run(artifacts[7]!.id);
    r.addDocument(kbs[0]!, 'added.md', 'tide honey water '.repeat(40));
    // 70,000 tokens: more than a remembered length can hold, so it is read each time.
    r.addDocument(kbs[1]!, 'long.md', 'tide honey glacier zebra xylem water heat '.repeat(10_000));
    exactEverywhere();
  });

  it('refuses a wrong number of document frequencies, and any use outside a full-text query, with an error', () => {
    const { r } = generated(4);
    const rank = (dfs: number[]) => () =>
      r.db.prepare(`SELECT parley_bm25(chunks_fts${', ?'.repeat(dfs.length)}) AS s FROM chunks_fts WHERE chunks_fts MATCH '"tide" OR "honey"'`).all(...dfs);
    expect(rank([1])).toThrow(/one document frequency for each phrase/);
    expect(rank([1, 2, 3])).toThrow(/one document frequency for each phrase/);
    expect(rank([1, 2])).not.toThrow();
    expect(() => r.db.prepare('SELECT parley_bm25(1, 2)').get()).toThrow();
    // The connection is still fine.
    expect(rank([1, 2])().length).toBeGreaterThan(0);
  });

  it('ranks keyword searches as FTS5 counting does; a file that does not load, or is missing, is said once and FTS5 counts instead', () => {
    const questions = ['café runs at the tide', 'honey hive water heat moon', 'naïve zebra quartz xylem bread', 'running water'];
    const { r: given, kbs } = generated(5);
    const { r: counted, kbs: countedKbs } = generated(5, { rankingExtension: false });
    expect([given.chunks.dfGiven, counted.chunks.dfGiven]).toEqual([true, false]);
    // Everything but the budgets FTS5's counting needs (without which the plans would differ).
    const options = { idfBudget: 1e12, maxBoostDf: 1e12 };
    for (const text of questions) {
      const a = keywordRanking(given.chunks, given.chunks.kbRanges(kbs), text, 10, options);
      const b = keywordRanking(counted.chunks, counted.chunks.kbRanges(countedKbs), text, 10, options);
      expect(a.ranked.length).toBeGreaterThan(0);
      expect(a.plan).toEqual(b.plan);
      // The same chunks, in the same places of each database's id ranges, with the same scores.
      const ranks = (hits: typeof a.ranked) => hits.map((h) => ({ at: h.id % 2 ** 32, score: h.score }));
      expect(ranks(a.ranked)).toEqual(ranks(b.ranked));
    }

    const notALibrary = join(given.db.name, '..', 'parley_fts.so');
    writeFileSync(notALibrary, 'not a shared library');
    const lines: string[] = [];
    const db = openDatabase(given.db.name, { rankingExtension: notALibrary, log: (line) => lines.push(line) });
    open.push(db);
    expect(hasRankingExtension(db)).toBe(false);
    expect(loadRankingExtension(db, notALibrary, (line) => lines.push(line))).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('could not be loaded');
    expect(lines[0]).toContain('lets FTS5 count document frequencies instead');

    // Not built at all: said too, and keyword search still ranks. Opened without it on purpose: nothing said.
    const missing = openDatabase(given.db.name, { rankingExtension: join(given.db.name, '..', 'never-built.so'), log: (line) => lines.push(line) });
    open.push(missing);
    expect(hasRankingExtension(missing)).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('never-built.so could not be loaded (there is no such file');
    const without = openDatabase(given.db.name, { rankingExtension: false, log: (line) => lines.push(line) });
    open.push(without);
    expect(hasRankingExtension(without)).toBe(false);
    expect(lines).toHaveLength(2);
  });
});
