import { afterEach, describe, expect, it } from 'vitest';
import { indexEmbeddings, searchHybrid, searchKeyword } from '../../../main/search/index.js';
import type { Chunk } from '../../../main/core/knowledge/ingest/types.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
afterEach(() => open.splice(0).forEach((r) => r.close()));

/** A knowledge base, as the ingest job leaves it: artifacts whose chunks arrive batch by batch. */
function library() {
  const r = retrievalDb();
  open.push(r);
  const kb = r.addKb('Library');
  const now = new Date().toISOString();
  let n = 0;
  const artifact = (key: string, status: string) => {
    const id = `art_s${++n}`;
    r.db
      .prepare(`INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?)`)
      .run(id, kb, key, key, status, now, now);
    return id;
  };
  const batch = (id: string, texts: string[], from = 0): number[] => {
    const chunks: Chunk[] = texts.map((text, i) => ({ ord: from + i, text, location: { start: 0, end: text.length } }));
    const ids = r.chunks.appendForArtifact(id, kb, chunks);
    if (!ids) throw new Error('artifact gone');
    return ids;
  };
  const setStatus = (id: string, status: string) => r.db.prepare('UPDATE artifacts SET status = ? WHERE id = ?').run(status, id);
  const keys = (text: string, options: Parameters<typeof searchKeyword>[2] = {}) =>
    searchKeyword(r, { kb_ids: [kb], text, limit: 20 }, options).map((h) => h.artifact_key);
  const runs = () => r.db.prepare('SELECT lo, hi, artifact_id FROM chunk_unready ORDER BY lo').all() as Array<{ lo: number; hi: number; artifact_id: string }>;
  return { r, kb, artifact, batch, setStatus, keys, runs };
}

describe('search finds only the chunks of ready files', () => {
  it('a file being processed is not found until it is ready, while a ready file beside it is', () => {
    const l = library();
    const ready = l.artifact('harbour.txt', 'ready');
    l.batch(ready, ['The harbour master logs every tide.']);
    const processing = l.artifact('tides.txt', 'processing');
    l.batch(processing, ['Spring tides follow the full moon.', 'Neap tides follow the half moon.']);
    l.batch(processing, ['The tide tables are printed yearly.'], 2);

    expect(l.keys('tide')).toEqual(['harbour.txt']);
    expect(l.keys('moon')).toEqual([]);
    // Consecutive batches of one file are one run.
    expect(l.runs()).toHaveLength(1);

    l.setStatus(processing, 'ready');
    expect(l.runs()).toEqual([]);
    expect(new Set(l.keys('tide'))).toEqual(new Set(['harbour.txt', 'tides.txt']));
    expect(l.keys('moon')).toEqual(['tides.txt', 'tides.txt']);
  });

  it('files processed side by side, their batches interleaved: each becomes searchable on its own', () => {
    const l = library();
    const a = l.artifact('a.txt', 'processing');
    const b = l.artifact('b.txt', 'processing');
    l.batch(a, ['Lanterns on the quay.']);
    l.batch(b, ['Lanterns on the pier.']);
    l.batch(a, ['More lanterns on the quay.'], 1);
    l.batch(b, ['More lanterns on the pier.'], 1);
    expect(l.runs()).toHaveLength(4);
    expect(l.keys('lanterns')).toEqual([]);

    l.setStatus(a, 'ready');
    expect(l.keys('lanterns')).toEqual(['a.txt', 'a.txt']);
    l.setStatus(b, 'ready');
    expect(l.keys('lanterns')).toHaveLength(4);
  });

  it('a failed file with chunks left behind is not found, nor a file that leaves ready; a deleted file takes its runs along', () => {
    const l = library();
    const failed = l.artifact('failed.txt', 'processing');
    l.batch(failed, ['Beacons blink at night.']);
    l.setStatus(failed, 'failed');
    expect(l.keys('beacons')).toEqual([]);

    const again = l.artifact('again.txt', 'ready');
    l.batch(again, ['Beacons guide the boats.', 'Beacons are checked weekly.']);
    expect(l.keys('beacons')).toEqual(['again.txt', 'again.txt']);
    l.setStatus(again, 'processing');
    expect(l.keys('beacons')).toEqual([]);

    l.r.db.prepare('DELETE FROM artifacts WHERE id IN (?, ?)').run(failed, again);
    expect(l.runs()).toEqual([]);
  });

  it('chunks of a file being processed do not use up the matches a search scores (they are left out inside the query)', () => {
    const l = library();
    const old = l.artifact('old.txt', 'ready');
    l.batch(old, ['Ropes and anchors.', 'Anchors hold the ship.']);
    // Newer than the ready file: the first matches the capped query would visit.
    const busy = l.artifact('busy.txt', 'processing');
    l.batch(
      busy,
      Array.from({ length: 20 }, (_, i) => `Anchors, anchors and more anchors ${i}.`),
    );
    expect(l.keys('anchors', { maxScoredPerKb: 3 })).toEqual(['old.txt', 'old.txt']);
    // Unranked plans (every term common) go through the same filter.
    expect(l.keys('anchors', { scoreBudget: 0 })).toEqual(['old.txt', 'old.txt']);
  });

  it('a replaced or emptied file keeps no runs for chunks that are gone', () => {
    const l = library();
    const a = l.artifact('a.txt', 'processing');
    l.batch(a, ['Sails and masts.']);
    l.r.chunks.replaceForArtifact(a, l.kb, []);
    expect(l.runs()).toEqual([]);
  });

  it('vectors are made only for ready files, and a file that left ready is not a vector candidate either', async () => {
    const l = library();
    const ready = l.artifact('ready.txt', 'ready');
    l.batch(ready, ['Gulls nest on the cliffs.', 'The cliffs are chalk.']);
    const busy = l.artifact('busy.txt', 'processing');
    const busyIds = l.batch(busy, ['Gulls circle the fishing boats.']);
    const embed = hashedEmbedder(32);
    expect(await indexEmbeddings(l.r, embed, { model: 'hashed' })).toBe(2);
    const hybridKeys = async (text: string) => (await searchHybrid(l.r, { kb_ids: [l.kb], text, limit: 10 }, embed)).map((h) => h.artifact_key);
    expect(await hybridKeys('gulls')).toEqual(['ready.txt', 'ready.txt']);

    l.setStatus(busy, 'ready');
    expect(await indexEmbeddings(l.r, embed, { model: 'hashed' })).toBe(1);
    const slot = l.r.chunks.kbRanges([l.kb])[0]!.slot;
    const vector = Float32Array.from((await embed(['gulls fishing boats']))[0]!);
    expect(l.r.chunks.knn(vector, slot, 10).map((n) => n.id)).toContain(busyIds[0]);

    // Back to processing (as a retried file would be): its vectors stay in the table, but are no candidates.
    l.setStatus(busy, 'processing');
    expect(l.r.chunks.knn(vector, slot, 10).map((n) => n.id)).not.toContain(busyIds[0]);
    expect(l.r.chunks.knn(vector, slot, 10)).toHaveLength(2);
    expect(await hybridKeys('gulls fishing boats')).toEqual(['ready.txt', 'ready.txt']);
  });
});
