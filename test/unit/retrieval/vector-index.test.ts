import { existsSync, rmSync, statSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/connection.js';
import { createRepositories } from '../../../main/search/repositories.js';
import { dbVersion, files, generator, recallAt10, restart, savedVersion, seeded } from './vector-setup.js';

describe('the HNSW vector index', () => {
  it('finds the exact nearest neighbours for at least 95% of the top 10 on a generated set', () => {
    const { r, slot, next } = seeded(100, 30);
    expect(r.chunks.approximateVectors()).toBe(true);
    const queries = Array.from({ length: 60 }, next);
    expect(recallAt10(r, slot, queries)).toBeGreaterThanOrEqual(0.95);
    // Distances are cosine distances, as sqlite-vec's.
    const [a] = r.chunks.knn(queries[0]!, slot, 1);
    const [b] = r.chunks.knnExact(queries[0]!, slot, 1);
    expect(a!.distance).toBeCloseTo(b!.distance, 4);
  });

  it('searches several knowledge bases at once: the nearest of each, merged, nearest first', () => {
    const { r, slot, next } = seeded(20, 10);
    const second = r.addKb('More vectors');
    const id = r.addDocument(second, 'more.md', Array.from({ length: 40 }, (_, i) => `More ${i}.`).join('\n\n'));
    const ids = (r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ? ORDER BY ord').all(id) as Array<{ id: number }>).map((c) => c.id);
    r.chunks.insertVectors(ids.map((c) => ({ id: c, vector: next() })));
    const other = r.chunks.kbRanges([second])[0]!.slot;
    for (const probe of Array.from({ length: 20 }, next)) {
      const merged = r.chunks.knn(probe, [slot, other], 10);
      const each = [...r.chunks.knn(probe, slot, 10), ...r.chunks.knn(probe, other, 10)].sort((a, b) => a.distance - b.distance || b.id - a.id).slice(0, 10);
      expect(merged).toEqual(each);
    }
    // Both knowledge bases take part.
    const slots = new Set(Array.from({ length: 20 }, next).flatMap((probe) => r.chunks.knn(probe, [slot, other], 10).map((n) => (ids.includes(n.id) ? other : slot))));
    expect(slots).toEqual(new Set([slot, other]));
  });

  it('takes in vectors incrementally: a chunk embedded after the first search is found', () => {
    const { r, kb, slot } = seeded(5, 10);
    const probe = generator(99)();
    r.chunks.knn(probe, slot, 5);
    const id = r.addDocument(kb, 'late.md', 'A late paragraph.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    r.chunks.insertVectors([{ id: chunk!.id, vector: probe }]);
    expect(r.chunks.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
  });

  it('skips a chunk that has its vector already (two passes over one batch), so progress is not counted twice', () => {
    const { r, kb, slot } = seeded(5, 10);
    const id = r.addDocument(kb, 'twice.md', 'Embedded by two passes.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    const probe = generator(7)();
    expect(r.chunks.insertVectors([{ id: chunk!.id, vector: probe }])).toEqual([chunk!.id]);
    expect(r.chunks.insertVectors([{ id: chunk!.id, vector: generator(8)() }])).toEqual([]);
    expect(r.chunks.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
  });

  it('forgets a deleted artifact’s vectors, in the table and the graph', () => {
    const { r, slot, artifacts } = seeded(10, 10);
    const victim = artifacts[3]!;
    const { embedding } = r.db.prepare('SELECT embedding FROM chunk_vectors WHERE chunk_id = ?').get(victim.chunks[0]) as { embedding: Buffer };
    const probe = new Float32Array(embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength));
    expect(r.chunks.knn(probe, slot, 1)[0]!.id).toBe(victim.chunks[0]);
    // Cascaded from the artifact row, as deleting a file does.
    r.db.prepare('DELETE FROM artifacts WHERE id = ?').run(victim.id);
    const found = r.chunks.knn(probe, slot, 100).map((n) => n.id);
    expect(found).toHaveLength(90);
    for (const id of victim.chunks) expect(found).not.toContain(id);
    expect((r.db.prepare('SELECT count(*) AS n FROM chunk_vectors').get() as { n: number }).n).toBe(90);
    expect((r.db.prepare('SELECT count(*) AS n FROM chunk_vector_gone').get() as { n: number }).n).toBe(0);
  });

  it('is saved beside the database and loaded at the next start, not rebuilt', async () => {
    const { r, slot, next } = seeded(20, 10);
    const queries = Array.from({ length: 10 }, next);
    const before = queries.map((q) => r.chunks.knn(q, slot, 10).map((n) => n.id));
    await r.chunks.saveVectorIndex();
    const { graph } = files(r, slot);
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
    // Marked old: a rebuild would write it again.
    utimesSync(graph, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const reopened = restart(r);
    expect(queries.map((q) => reopened.knn(q, slot, 10).map((n) => n.id))).toEqual(before);
    expect(statSync(graph).mtime.getFullYear()).toBe(2000);
  });

  it('builds its graphs in a worker with the native binding and the log the repositories are given (Electron’s build of SQLite, the app’s log)', async () => {
    const { r, slot, next } = seeded(10, 10);
    const db = openDatabase(r.db.name);
    const lines: string[] = [];
    const repos = createRepositories(db, { nativeBinding: '/nowhere/better_sqlite3.node', log: (line) => lines.push(line) });
    try {
      const probe = next();
      // No graph saved yet: the first search is answered exactly, while a worker opens the database with that binding to build it.
      expect(repos.chunks.knn(probe, slot, 5)).toHaveLength(5);
      await repos.chunks.vectorGraphsSettled();
      expect(lines).toEqual([expect.stringMatching(/^\[retrieval\] building the vector graph of knowledge base \d+ in the background failed \(.*\/nowhere\/better_sqlite3\.node/)]);
      // Where no worker can run, the graph is built in place.
      expect(repos.chunks.knn(probe, slot, 5)).toHaveLength(5);
      expect(repos.chunks.vectorSearchPath(slot)).toBe('graph');
    } finally {
      await repos.chunks.vectorGraphsSettled();
      db.close();
    }
  });

  it('is rebuilt from the vectors table after a crash (file missing, or older than the vectors) in the background: searches answer meanwhile', async () => {
    const { r, kb, slot, next } = seeded(20, 10);
    const queries = Array.from({ length: 20 }, next);
    r.chunks.knn(queries[0]!, slot, 1);
    await r.chunks.saveVectorIndex();
    // More vectors, then a crash before the graph is saved again: the file is one version behind.
    const id = r.addDocument(kb, 'after-save.md', 'Written after the save.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    const late = next();
    r.chunks.insertVectors([{ id: chunk!.id, vector: late }]);
    expect(savedVersion(r, slot)).toBeLessThan(dbVersion(r, slot));

    const restarted = restart(r);
    // The first search does not wait for the graph: exact kNN answers it (the graph arrives on a later turn of the event loop at the earliest).
    expect(restarted.knn(late, slot, 1)[0]!.id).toBe(chunk!.id);
    expect(restarted.vectorSearchPath(slot)).toBe('exact');
    await restarted.vectorGraphsSettled();
    expect(restarted.vectorSearchPath(slot)).toBe('graph');
    expect(restarted.knn(late, slot, 1)[0]!.id).toBe(chunk!.id);
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));

    // The files gone altogether.
    rmSync(`${r.db.name}.vectors`, { recursive: true, force: true });
    const again = restart(r);
    expect(again.knn(late, slot, 1)[0]!.id).toBe(chunk!.id);
    expect(again.vectorSearchPath(slot)).toBe('exact');
    await again.vectorGraphsSettled();
    expect(again.vectorSearchPath(slot)).toBe('graph');
    expect(existsSync(files(r, slot).graph)).toBe(true);
    let found = 0;
    for (const q of queries) {
      const exact = new Set(again.knnExact(q, slot, 10).map((n) => n.id));
      found += again.knn(q, slot, 10).filter((n) => exact.has(n.id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('takes in the vectors stored and deleted while its saved graph is being read, so the graph it then serves is current', async () => {
    const { r, kb, slot, artifacts, next } = seeded(20, 10);
    r.chunks.knn(next(), slot, 1);
    await r.chunks.saveVectorIndex();
    const restarted = restart(r);
    restarted.warmVectorGraphs();
    expect(restarted.vectorSearchPath(slot)).toBe('exact');
    // While the file (of the version before these changes) is read on the thread pool: a new vector, and a deleted file.
    const id = r.addDocument(kb, 'meanwhile.md', 'Stored during the rebuild.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    const probe = next();
    expect(restarted.insertVectors([{ id: chunk!.id, vector: probe }])).toEqual([chunk!.id]);
    const victim = artifacts[0]!;
    r.db.prepare('DELETE FROM artifacts WHERE id = ?').run(victim.id);
    const { embedding } = r.db.prepare('SELECT embedding FROM chunk_vectors WHERE chunk_id = ?').get(artifacts[1]!.chunks[0]) as { embedding: Buffer };
    restarted.knn(probe, slot, 1); // sweeps the deleted chunks' vectors, still during the rebuild
    await restarted.vectorGraphsSettled();
    expect(restarted.vectorSearchPath(slot)).toBe('graph');
    expect(restarted.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
    const all = restarted.knn(new Float32Array(embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength)), slot, 500).map((n) => n.id);
    expect(all).toHaveLength(200 - 10 + 1);
    for (const gone of victim.chunks) expect(all).not.toContain(gone);
  });

  it('starts over when the embedding model changes: old graphs are never used for new vectors', async () => {
    const { r, slot, artifacts } = seeded(5, 10);
    r.chunks.knn(generator(5)(), slot, 3);
    await r.chunks.saveVectorIndex();
    expect(r.chunks.ensureVectorTable('another', 8)).toBe(true);
    expect(existsSync(files(r, slot).graph)).toBe(false);
    const ids = artifacts.flatMap((a) => a.chunks);
    r.chunks.insertVectors(ids.map((id, i) => ({ id, vector: Float32Array.from({ length: 8 }, (_, d) => (d === i % 8 ? 1 : 0.01)) })));
    const hits = r.chunks.knn(Float32Array.from({ length: 8 }, (_, d) => (d === 2 ? 1 : 0)), slot, 5);
    expect(hits).toHaveLength(5);
    for (const h of hits) expect(ids.indexOf(h.id) % 8).toBe(2);
  });
});
