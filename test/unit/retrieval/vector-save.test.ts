import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAVE_GAP_MS } from '../../../main/search/vectors/ann.js';
import { DIMENSIONS, dbVersion, files, recallAt10, restart, savedVersion, seeded } from './vector-setup.js';

/** Vector of a chunk as stored (to search for it). */
const storedVector = (db: { prepare: (sql: string) => { get: (id: number) => unknown } }, chunkId: number) => {
  const { embedding } = db.prepare('SELECT embedding FROM chunk_vectors WHERE chunk_id = ?').get(chunkId) as { embedding: Buffer };
  return new Float32Array(embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength));
};

/** Graph files in the directory that no meta names (a write in progress, or one a kill cut short). */
const unnamedGraphs = (dir: string, named: string) => readdirSync(dir).filter((n) => n.endsWith('.hnsw') && n !== named);

describe('saving the HNSW graphs', () => {
  // The pause between two writes of a graph is a timer (the writes themselves are real I/O on the thread pool).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes off the main thread: searches and new vectors are served while a graph is written, and the file holds the version it started from', async () => {
    const { r, kb, slot, artifacts, next } = seeded(40, 25);
    const startedAt = dbVersion(r, slot);
    let written = false;
    const saving = r.chunks.saveVectorIndex().then(() => {
      written = true;
    });
    // Meanwhile (the call returned before the write: with a write on this thread the meta would exist by now):
    // a file is stored and embedded, another deleted.
    expect(existsSync(files(r, slot).meta)).toBe(false);
    const id = r.addDocument(kb, 'meanwhile.md', 'Stored while the graph is written.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    const probe = next();
    expect(r.chunks.insertVectors([{ id: chunk!.id, vector: probe }])).toEqual([chunk!.id]);
    const victim = artifacts[5]!;
    const victimVector = storedVector(r.db, victim.chunks[0]!);
    r.db.prepare('DELETE FROM artifacts WHERE id = ?').run(victim.id);
    // Searches go on through the graph, with those changes in them.
    expect(r.chunks.vectorSearchPath(slot)).toBe('graph');
    expect(r.chunks.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
    const near = r.chunks.knn(victimVector, slot, 50).map((n) => n.id);
    expect(near).toHaveLength(50);
    for (const gone of victim.chunks) expect(near).not.toContain(gone);
    expect(recallAt10(r, slot, Array.from({ length: 30 }, next))).toBeGreaterThanOrEqual(0.95);
    expect(written).toBe(false);

    await saving;
    // The file holds the graph as it was when the write began; the changes made meanwhile joined the graph after.
    expect(savedVersion(r, slot)).toBe(startedAt);
    expect(dbVersion(r, slot)).toBeGreaterThan(startedAt);
    expect(r.chunks.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
    expect(r.chunks.knn(victimVector, slot, 50).map((n) => n.id)).not.toContain(victim.chunks[0]);

    // The next write waits for the pause after the last one.
    const again = r.chunks.saveVectorIndex();
    await vi.advanceTimersByTimeAsync(SAVE_GAP_MS);
    await again;
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
    const restarted = restart(r);
    restarted.warmVectorGraphs();
    await restarted.vectorGraphsSettled();
    expect(restarted.vectorSearchPath(slot)).toBe('graph');
    expect(restarted.knn(probe, slot, 1)[0]!.id).toBe(chunk!.id);
    expect(restarted.knn(victimVector, slot, 50).map((n) => n.id)).not.toContain(victim.chunks[0]);
  });

  it('writes one graph at a time: saves asked for while one is written share one more write, after a pause', async () => {
    const { r, kb, slot, next } = seeded(20, 10);
    const first = r.chunks.saveVectorIndex();
    // The first write is under way; three more batches ask for saves meanwhile.
    const later: Array<Promise<void>> = [];
    let laterDone = false;
    for (let i = 0; i < 3; i++) {
      const id = r.addDocument(kb, `batch-${i}.md`, `Batch ${i}.`);
      const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
      r.chunks.insertVectors([{ id: chunk!.id, vector: next() }]);
      later.push(r.chunks.saveVectorIndex());
    }
    void Promise.all(later).then(() => (laterDone = true));
    await first;
    const dir = dirname(files(r, slot).meta);
    expect(basename(files(r, slot).graph)).toMatch(/-1\.hnsw$/);
    // The follow-up waits out the pause after the first write.
    await vi.advanceTimersByTimeAsync(SAVE_GAP_MS - 1);
    expect(laterDone).toBe(false);
    expect(basename(files(r, slot).graph)).toMatch(/-1\.hnsw$/);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(later);
    // Each write goes to a file of its own, numbered: the second is the last, with every batch in it.
    expect(basename(files(r, slot).graph)).toMatch(/-2\.hnsw$/);
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
    // The first write's file was removed once the second was named.
    expect(unnamedGraphs(dir, basename(files(r, slot).graph))).toEqual([]);
  });

  it('at shutdown, writes what waits at once rather than after the pause', async () => {
    const { r, kb, slot, next } = seeded(20, 10);
    await r.chunks.saveVectorIndex();
    const id = r.addDocument(kb, 'late.md', 'Late.');
    const [chunk] = r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ?').all(id) as Array<{ id: number }>;
    r.chunks.insertVectors([{ id: chunk!.id, vector: next() }]);
    void r.chunks.saveVectorIndex();
    expect(savedVersion(r, slot)).toBeLessThan(dbVersion(r, slot));
    // No timer advanced: the pause is cut short.
    await r.chunks.stopBackgroundWork();
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
  });

  it('leaves the previous graph or a rebuilt one after a kill mid-save, never a torn one', async () => {
    const { r, kb, slot, next } = seeded(60, 25);
    await r.chunks.saveVectorIndex();
    const savedAt = savedVersion(r, slot);
    const previous = basename(files(r, slot).graph);
    // Chunks without vectors: the other process embeds them and is killed while it saves the graph.
    for (let f = 0; f < 20; f++) r.addDocument(kb, `late-${f}.md`, Array.from({ length: 25 }, (_, i) => `Late paragraph ${i} of ${f}.`).join('\n\n'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/vector-save-killed.ts', r.db.name, String(DIMENSIONS), '7'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const [, signal] = (await new Promise((resolve) => child.once('exit', (...a) => resolve(a)))) as [number | null, string | null];
    expect(signal, output).toBe('SIGKILL');
    expect(output).toContain('saving');

    // What the kill left: the previous graph, still named by its meta, and a new graph file no meta names.
    const dir = dirname(files(r, slot).meta);
    expect(basename(files(r, slot).graph)).toBe(previous);
    expect(savedVersion(r, slot)).toBe(savedAt);
    expect(dbVersion(r, slot)).toBeGreaterThan(savedAt);
    expect(unnamedGraphs(dir, previous).length).toBeGreaterThan(0);

    // The next start never trusts either: the cut-short file is removed, the previous graph is older than the vectors, so it is rebuilt.
    const restarted = restart(r);
    expect(unnamedGraphs(dir, previous)).toEqual([]);
    restarted.warmVectorGraphs();
    expect(restarted.vectorSearchPath(slot)).toBe('exact');
    await restarted.vectorGraphsSettled();
    expect(restarted.vectorSearchPath(slot)).toBe('graph');
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
    expect((r.db.prepare('SELECT count(*) AS n FROM chunk_vectors').get() as { n: number }).n).toBe(80 * 25);
    let found = 0;
    const queries = Array.from({ length: 30 }, next);
    for (const q of queries) {
      const exact = new Set(restarted.knnExact(q, slot, 10).map((n) => n.id));
      found += restarted.knn(q, slot, 10).filter((n) => exact.has(n.id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('leaves alone the write in progress of another running Parley on the same data directory', async () => {
    const { r, slot } = seeded(5, 10);
    await r.chunks.saveVectorIndex();
    const dir = dirname(files(r, slot).meta);
    // A graph file of another process that is running (its pid is this test's parent) and one of a process long gone.
    const other = `slot-${slot}.${process.ppid}-0badcafe-1.hnsw`;
    const gone = `slot-${slot}.999999999-0badcafe-1.hnsw`;
    writeFileSync(join(dir, other), 'half written');
    writeFileSync(join(dir, gone), 'half written');
    restart(r);
    expect(existsSync(join(dir, other))).toBe(true);
    expect(existsSync(join(dir, gone))).toBe(false);
    expect(existsSync(files(r, slot).graph)).toBe(true);
  });

  it('saves the graphs not saved yet at shutdown, so the next start loads them instead of rebuilding', async () => {
    const { r, slot, next } = seeded(30, 20);
    // Vectors stored, the graph grown, never saved.
    expect(existsSync(files(r, slot).meta)).toBe(false);
    await r.chunks.stopBackgroundWork();
    expect(savedVersion(r, slot)).toBe(dbVersion(r, slot));
    const saved = files(r, slot).graph;
    // Vectors of private text: readable by the user running Parley only, as the rest of the data directory.
    if (process.platform !== 'win32') {
      expect(statSync(saved).mode & 0o777).toBe(0o600);
      expect(statSync(files(r, slot).meta).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(saved)).mode & 0o777).toBe(0o700);
    }

    const restarted = restart(r);
    restarted.warmVectorGraphs();
    await restarted.vectorGraphsSettled();
    // The first search after the start goes through the graph read from that file: nothing was rebuilt.
    expect(restarted.vectorSearchPath(slot)).toBe('graph');
    const probe = next();
    expect(restarted.knn(probe, slot, 10)).toHaveLength(10);
    expect(files(r, slot).graph).toBe(saved);
    expect(readdirSync(dirname(saved)).filter((n) => n.endsWith('.hnsw'))).toEqual([basename(saved)]);
  });
});
