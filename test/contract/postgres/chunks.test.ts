import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDb } from '../../../main/db/postgres/connection.js';
import { createPostgresChunkStore } from '../../../main/db/postgres/chunks.js';
import { migratePostgres } from '../../../main/db/postgres/migrations/index.js';
import type { ChunksRepo } from '../../../main/db/repositories/chunks.js';
import { rank, searchKeyword, searchRanked } from '../../../main/search/index.js';
import { freshDatabaseUrl } from '../../support/postgres-db.js';

const NOW = '2026-11-26T00:00:00.000Z';
const at = (start: number) => ({ start, end: start + 10 });

// The chunks repository on PostgreSQL (main/db/postgres/chunks.ts) under main/search's keyword and
// hybrid search, as the app runs it: full-text search over `chunks.words`, pgvector's HNSW index.
describe('chunks on PostgreSQL', () => {
  let db: PostgresDb;
  let chunks: ChunksRepo;
  const ids: Record<string, number[]> = {};

  const artifact = (id: string, kb: string, status: string) =>
    db.query("INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at) VALUES ($1, $2, $1, $1, 1, 1, $3, $4, $4)", [id, kb, status, NOW]);
  const search = (kbIds: string[], text: string) => searchKeyword({ chunks }, { kb_ids: kbIds, text, limit: 10 });

  beforeAll(() => {
    db = new PostgresDb(freshDatabaseUrl());
    migratePostgres(db);
    chunks = createPostgresChunkStore(db, () => new Date(NOW));
    db.query("INSERT INTO organizations (id, name, created_at) VALUES ('org', 'Org', $1)", [NOW]);
    for (const kb of ['kb1', 'kb2']) {
      db.query("INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ($1, 'org', $1, $2, $2)", [`ds-${kb}`, NOW]);
      db.query('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES ($1, $2, $3)', [kb, `ds-${kb}`, NOW]);
    }
    // Written while processing, as ingest writes them; a1 and b1 are then ready, a2 is still processing.
    for (const [id, kb] of [['a1', 'kb1'], ['a2', 'kb1'], ['b1', 'kb2']] as const) artifact(id, kb, 'processing');
    ids.a1 = chunks.replaceForArtifact('a1', 'kb1', [
      { ord: 0, text: 'The pressure distribution over a circular cylinder at supersonic speed.', location: at(0) },
      { ord: 1, text: 'Boundary layer transition on a flat plate in laminar flow.', location: at(80) },
      { ord: 2, text: 'Heat transfer to a flat plate and the boundary layer.', location: at(160) },
      { ord: 3, text: '東京都の人口は約千四百万人です。', location: at(240) },
      { ord: 4, text: 'Le café crème se boit à Zürich, près du lac.', location: at(320) },
      { ord: 5, text: 'Cafe prices near the lake in Zurich rose again.', location: at(400) },
    ]);
    ids.a2 = chunks.replaceForArtifact('a2', 'kb1', [{ ord: 0, text: 'Supersonic cylinder pressure, pressure, pressure: a draft.', location: at(0) }]);
    ids.b1 = chunks.replaceForArtifact('b1', 'kb2', [{ ord: 0, text: 'Supersonic pressure on a cylinder, measured in the other dataset.', location: at(0) }]);
    db.query("UPDATE artifacts SET status = 'ready' WHERE id IN ('a1', 'b1')");
  });

  afterAll(() => {
    db?.close();
  });

  it('folds accents as SQLite does: a word found with or without them, both ways', () => {
    const found = (text: string) => search(['kb1'], text).map((hit) => hit.chunk_id);
    expect(found('cafe creme')[0]).toBe(ids.a1![4]);
    expect(found('Zürich café')).toEqual(expect.arrayContaining([ids.a1![4], ids.a1![5]]));
    expect(found('prés')).toEqual([ids.a1![4]]);
  });

  it('ranks the best chunk of the knowledge bases asked first, never an unready or another knowledge base’s chunk', () => {
    const hits = search(['kb1'], 'supersonic pressure on a cylinder');
    expect(hits[0]?.chunk_id).toBe(ids.a1![0]);
    expect(hits[0]?.artifact_key).toBe('a1');
    expect(hits.every((hit) => hit.kb_id === 'kb1' && hit.artifact_id === 'a1')).toBe(true);
    // Both knowledge bases: the other one's chunk comes too, the unready one still not.
    const both = search(['kb1', 'kb2'], 'supersonic pressure on a cylinder').map((hit) => hit.chunk_id);
    expect(both).toEqual(expect.arrayContaining([ids.a1![0], ids.b1![0]]));
    expect(both).not.toContain(ids.a2![0]);
    // More of a question's words rank higher: "flat plate boundary layer laminar" is chunk 1's.
    expect(search(['kb1'], 'laminar boundary layer on a flat plate')[0]?.chunk_id).toBe(ids.a1![1]);
    expect(search(['kb1'], 'words nobody wrote')).toEqual([]);
    // Words meet their stems, as in SQLite's porter-stemmed index: "pressures", "cylinders" find chunk 0.
    expect(search(['kb1'], 'pressures around cylinders')[0]?.chunk_id).toBe(ids.a1![0]);
  });

  it('finds a Japanese chunk by one of its words', () => {
    const hits = search(['kb1'], '人口');
    expect(hits.map((hit) => hit.chunk_id)).toEqual([ids.a1![3]]);
    expect(hits[0]?.snippet).toContain('人口');
  });

  it('keeps the common words’ document frequencies in chunk_terms, refreshed on a connection of its own', async () => {
    const [[supersonic], [wedge]] = chunks.stems(['supersonic', 'wedge']) as [[string], [string]];
    const stored = (term: string) => db.query<{ df: number }>('SELECT df FROM chunk_terms WHERE term = $1', [term]).rows[0]?.df;
    expect(chunks.refreshTermStats(1).terms).toBeGreaterThan(0);
    // Every chunk counts, as in FTS5's vocabulary: a1's, a2's (not ready) and b1's.
    expect(stored(supersonic)).toBe(3);
    expect(chunks.docFreq(supersonic)).toBe(3);
    artifact('b2', 'kb2', 'processing');
    ids.b2 = chunks.replaceForArtifact('b2', 'kb2', [{ ord: 0, text: 'A supersonic wedge.', location: at(0) }]);
    expect(await chunks.refreshTermStatsInBackground(0.1, 1)).toBe(true);
    await chunks.termStatsSettled();
    expect(stored(supersonic)).toBe(4);
    expect(stored(wedge)).toBe(1);
  });

  it('finds the nearest vectors of the knowledge bases asked through pgvector, and fuses them in hybrid search', async () => {
    expect(chunks.vectorsAvailable()).toBe(true);
    expect(chunks.ensureVectorTable('test-model', 3)).toBe(true);
    expect(chunks.ensureVectorTable('test-model', 3)).toBe(false);
    const vector = (...values: number[]) => new Float32Array(values);
    // Only ready chunks are embedded: a2's is not among them.
    const missing = chunks.chunksWithoutVectors(0, Number.MAX_SAFE_INTEGER, 100).map((c) => c.id);
    expect(missing.sort()).toEqual([...ids.a1!, ...ids.b1!].sort());
    const stored = chunks.insertVectors([
      { id: ids.a1![0]!, vector: vector(1, 0, 0) },
      { id: ids.a1![1]!, vector: vector(0, 1, 0) },
      { id: ids.a1![2]!, vector: vector(0.7, 0.7, 0) },
      { id: ids.a2![0]!, vector: vector(0, 0, 1) },
      { id: ids.b1![0]!, vector: vector(0, 0.1, 1) },
    ]);
    expect(stored).toHaveLength(5);
    // Stored already: skipped.
    expect(chunks.insertVectors([{ id: ids.a1![0]!, vector: vector(1, 0, 0) }])).toEqual([]);
    const [kb1] = chunks.kbRanges(['kb1']);
    const nearest = chunks.knn(vector(0, 0.2, 1), [kb1!.slot], 2);
    // a2's vector is the nearest of all, but its file is not ready; b1's is in the other knowledge base.
    expect(nearest.map((n) => n.id)).toEqual([ids.a1![1], ids.a1![2]]);
    expect(nearest[0]!.distance).toBeLessThan(nearest[1]!.distance);
    expect(chunks.knnExact(vector(0, 0.2, 1), kb1!.slot, 2).map((n) => n.id)).toEqual([ids.a1![1], ids.a1![2]]);

    const embed = () => Promise.resolve([[1, 0, 0]]);
    const ranked = await searchRanked({ chunks }, { kb_ids: ['kb1'], text: 'boundary layer', limit: 3 }, embed);
    expect(ranked.mode).toBe('hybrid');
    // Chunk 0 holds neither word but is the question's vector: only the vector half brings it.
    expect(ranked.hits.map((hit) => hit.chunk_id)).toContain(ids.a1![0]);
  });

  it('forgets a deleted file’s chunks in keyword search and in vectors', () => {
    expect(search(['kb1'], '人口')).toHaveLength(1);
    db.query("DELETE FROM artifacts WHERE id = 'a1'");
    expect(search(['kb1'], 'supersonic pressure on a cylinder laminar 人口')).toEqual([]);
    const [kb1] = chunks.kbRanges(['kb1']);
    expect(chunks.knn(new Float32Array([1, 0, 0]), [kb1!.slot], 5)).toEqual([]);
    expect(db.query<{ n: number }>('SELECT count(*) AS n FROM chunk_vectors').rows[0]?.n).toBe(2);
    expect(db.query<{ n: number }>('SELECT count(*) AS n FROM chunk_words').rows[0]?.n).toBe(0);
    // The totals bm25 averages over follow: a2's, b1's and b2's chunks are left.
    expect(chunks.indexTotals().rows).toBe(3);
  });

  it('answers hybrid search with a 409 saying why where the server has no pgvector, and keyword search still', async () => {
    // A role that may not create extensions stands for a server without pgvector: CREATE EXTENSION fails alike.
    const url = new URL(freshDatabaseUrl());
    const owner = new PostgresDb(url.toString());
    let limited: PostgresDb | undefined;
    try {
      migratePostgres(owner);
      owner.query("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'parley_t_novector') THEN CREATE ROLE parley_t_novector LOGIN; END IF; END $$");
      owner.query('GRANT ALL ON ALL TABLES IN SCHEMA public TO parley_t_novector; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO parley_t_novector');
      url.username = 'parley_t_novector';
      limited = new PostgresDb(url.toString());
      const lines: string[] = [];
      const store = createPostgresChunkStore(limited, () => new Date(NOW), (line) => lines.push(line));
      expect(store.vectorsAvailable()).toBe(false);
      expect(lines.join('\n')).toMatch(/no pgvector/);
      const source = { chunks: store, artifacts: { embeddingCoverage: () => ({ embedded: 0, total: 0 }) } };
      const embed = () => Promise.resolve([[1, 0, 0]]);
      await expect(rank(source, { knowledgeBases: ['kb'], text: 'pressure', limit: 5, mode: 'hybrid', embed })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(/pgvector/),
      });
      expect((await rank(source, { knowledgeBases: ['kb'], text: 'pressure', limit: 5, mode: 'auto', embed })).mode).toBe('keyword');
    } finally {
      limited?.close();
      owner.close();
    }
  });
});
