import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { openDatabase } from '../../../main/db/connection.js';
import { createChunksRepo } from '../../../main/search/chunks.js';
import { seededRandom } from '../../../main/core/platform/seeded-random.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

/** Knowledge bases with generated vectors, restarts on the same file, and the saved graphs' files (the vector index tests). */
const open: RetrievalDb[] = [];
const connections: Array<ReturnType<typeof openDatabase>> = [];
const repos: Array<ReturnType<typeof createChunksRepo>> = [];
afterEach(async () => {
  // No graph still loading when its connection closes.
  for (const repo of [...repos.splice(0), ...open.map((r) => r.chunks)]) await repo.vectorGraphsSettled();
  connections.splice(0).forEach((db) => db.close());
  open.splice(0).forEach((r) => r.close());
});
/** Another connection to the same file, as after a restart. */
export const restart = (r: RetrievalDb) => {
  const db = openDatabase(r.db.name);
  connections.push(db);
  const repo = createChunksRepo(db);
  repos.push(repo);
  return repo;
};

export const DIMENSIONS = 48;

/** Vectors around a few dozen centres, as embeddings of documents on a few dozen topics are. */
export function generator(seed: number) {
  const rand = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
  const centres = Array.from({ length: 40 }, () => Array.from({ length: DIMENSIONS }, gauss));
  return () => {
    const c = centres[Math.floor(rand() * centres.length)]!;
    return Float32Array.from(c, (x) => x + 0.6 * gauss());
  };
}

/** A knowledge base with `files` artifacts of `perFile` chunks, each chunk with a generated vector. */
export function seeded(files: number, perFile: number, seed = 1) {
  const r = retrievalDb();
  open.push(r);
  const kb = r.addKb('Vectors');
  const next = generator(seed);
  r.chunks.ensureVectorTable('generated', DIMENSIONS);
  const artifacts: Array<{ id: string; chunks: number[] }> = [];
  for (let f = 0; f < files; f++) {
    const id = r.addDocument(kb, `file-${f}.md`, Array.from({ length: perFile }, (_, i) => `Paragraph ${i} of file ${f}.`).join('\n\n'));
    const chunks = (r.db.prepare('SELECT id FROM chunks WHERE artifact_id = ? ORDER BY ord').all(id) as Array<{ id: number }>).map((c) => c.id);
    expect(r.chunks.insertVectors(chunks.map((c) => ({ id: c, vector: next() })))).toHaveLength(chunks.length);
    artifacts.push({ id, chunks });
  }
  const slot = r.chunks.kbRanges([kb])[0]!.slot;
  return { r, kb, slot, artifacts, next };
}

export const recallAt10 = (r: RetrievalDb, slot: number, queries: Float32Array[]) => {
  let found = 0;
  for (const q of queries) {
    const exact = new Set(r.chunks.knnExact(q, slot, 10).map((n) => n.id));
    found += r.chunks.knn(q, slot, 10).filter((n) => exact.has(n.id)).length;
  }
  return found / (queries.length * 10);
};

/** The saved meta, and the graph file it names (none when there is no meta). */
export const files = (r: RetrievalDb, slot: number) => {
  const dir = `${r.db.name}.vectors`;
  const meta = join(dir, `slot-${slot}.json`);
  const named = existsSync(meta) ? (JSON.parse(readFileSync(meta, 'utf8')) as { graph: string }).graph : `slot-${slot}.none`;
  return { graph: join(dir, named), meta };
};
export const savedVersion = (r: RetrievalDb, slot: number) => (JSON.parse(readFileSync(files(r, slot).meta, 'utf8')) as { version: number }).version;
export const dbVersion = (r: RetrievalDb, slot: number) => (r.db.prepare('SELECT version FROM chunk_vector_slots WHERE slot = ?').get(slot) as { version: number }).version;
