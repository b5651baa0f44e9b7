import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootCore } from '../../../main/boot.js';
import { onTestStorage } from '../../support/test-storage.js';
import { VILLAGE_DOCS } from '../../support/chat.js';
import { bootWithEmbeddings } from '../../support/embedded-core.js';

type Answer = { data: Array<{ artifact_key: string }>; mode: string };

/** The graph file the saved meta of a knowledge base names, and the vector version it holds. */
const savedGraph = (dataDir: string, slot: number) => JSON.parse(readFileSync(join(dataDir, 'parley.db.vectors', `slot-${slot}.json`), 'utf8')) as { graph: string; version: number };

describe('vector graphs across a restart', () => {
  it('saves the graph at shutdown, so the first search after the next start is served by the graph it loads (no rebuild)', async () => {
    const e = await bootWithEmbeddings(VILLAGE_DOCS);
    const { core, me, dataset } = e;
    const dataDir = core.dataDir;
    const slot = core.repos.chunks.kbRanges([dataset.kb_id])[0]!.slot;
    const version = () => (core.db.prepare('SELECT version FROM chunk_vector_slots WHERE slot = ?').get(slot) as { version: number }).version;
    // A change after the last save: a file deleted, its vectors leave the graph at the next search.
    await core.service.invoke('artifacts.delete', { kb_id: dataset.kb_id, key: 'bakery.md' }, me);
    await core.service.invoke('search.query', { query: 'lighthouse lamp', dataset_ids: [dataset.id], mode: 'hybrid' }, me);
    const current = version();
    await core.close();
    // Written at shutdown: the graph as it was when Parley stopped.
    const saved = savedGraph(dataDir, slot);
    expect(saved.version).toBe(current);

    const next = bootCore(onTestStorage({ dataDir, appVersion: 't' }));
    try {
      // Graphs are asked for right after start; loading the saved one is a read on the thread pool.
      await new Promise((resolve) => setImmediate(resolve));
      await next.repos.chunks.vectorGraphsSettled();
      expect(next.repos.chunks.vectorSearchPath(slot)).toBe('graph');
      const answer = (await next.service.invoke('search.query', { query: 'pruning apple trees in winter', dataset_ids: [dataset.id], mode: 'hybrid' }, next.desktopCaller())) as Answer;
      expect(answer.mode).toBe('hybrid');
      expect(answer.data[0]?.artifact_key).toBe('orchard.md');
      expect(answer.data.map((d) => d.artifact_key)).not.toContain('bakery.md');
      // Still the file written at shutdown: nothing was rebuilt.
      expect(savedGraph(dataDir, slot)).toEqual(saved);
    } finally {
      await next.close();
      await e.close();
    }
  });
});
