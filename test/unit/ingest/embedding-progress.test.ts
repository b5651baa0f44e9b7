/**
 * Issue 9 item 4: after a file is ready its chunks are embedded in the background, batch by batch,
 * each file with its own progress (`embedding: {state, done, total}` on the artifact); the file is
 * ready and searchable by keyword meanwhile, a failure is kept on the file, and a restart resumes.
 * Real core, real SQLite with sqlite-vec, embeddings from the deterministic upstream over HTTP.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootCore, type Core } from '../../../main/boot.js';
import type { Artifact } from '../../../shared/operations/datasets.js';
import { startUpstream, type Upstream } from '../../fixtures/upstream.js';
import { TEST_ADMIN_KEY, tempDir } from '../../support/core.js';
import { formFiles } from '../../support/form-files.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Many short paragraphs: well over one batch (32) of chunks. */
const LONG = Array.from({ length: 120 }, (_, i) => `## Section ${i}\n\nHarbour record ${i}: the tide table for pier ${i} was checked and the ferry ${i} left on time.`).join('\n\n');

/** A data directory whose `[retrieval] embedding_model` is `upstreamModel` on the fixture (`slow:…`, `status:…`). */
async function dataDirWith(upstream: Upstream, upstreamModel: string | null) {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const first = bootCore({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY });
  if (upstreamModel) {
    const model = (await first.service.invoke(
      'models.create',
      { name: 'Embeddings', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'sk-e', model: upstreamModel },
      first.desktopCaller(),
    )) as { id: string };
    first.close();
    const file = join(dir, 'parley.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('embedding_model = ""', `embedding_model = "${model.id}"`));
  } else {
    first.close();
  }
  return dir;
}

function stop(core: Core): void {
  core.runtime.ingest.stop();
  core.close();
}

/** A core over `dir`, closed after the test unless `untracked` (a test that closes it itself). */
function boot(dir: string, untracked = false): Core {
  const core = bootCore({ dataDir: dir, appVersion: 't' });
  if (!untracked) cleanups.push(() => stop(core));
  return core;
}

async function addFile(core: Core, key: string, text: string) {
  const me = core.desktopCaller();
  const dataset = (await core.service.invoke('datasets.create', { name: `Set ${key}` }, me)) as { id: string; kb_id: string };
  await core.service.invoke('artifacts.upload', { kb_id: dataset.kb_id, files: formFiles({ filename: key, mime_type: 'text/markdown', bytes: text }) }, me);
  const get = async () => (await core.service.invoke('artifacts.get', { kb_id: dataset.kb_id, key }, me)) as Artifact;
  return { dataset, get };
}

async function upstream(): Promise<Upstream> {
  const u = await startUpstream();
  cleanups.push(() => u.close());
  return u;
}

describe('per-file embedding progress', { timeout: 30_000 }, () => {
  it('ends ready with every chunk embedded, and is listed with the file', async () => {
    const u = await upstream();
    const core = boot(await dataDirWith(u, 'text-embedding-hash'));
    const { dataset, get } = await addFile(core, 'harbour.md', LONG);
    await core.runtime.ingest.idle();
    const artifact = await get();
    expect(artifact.status).toBe('ready');
    expect(artifact.chunk_count).toBeGreaterThan(32);
    expect(artifact.embedding).toEqual({ state: 'ready', done: artifact.chunk_count, total: artifact.chunk_count, error: null });
    const listed = (await core.service.invoke('artifacts.list', { kb_id: dataset.kb_id }, core.desktopCaller())) as { data: Artifact[] };
    expect(listed.data[0]?.embedding?.state).toBe('ready');
    // Batches, not one call per file: more than one request, fewer than one per chunk.
    const calls = u.requests.filter((r) => r.path === '/v1/embeddings').length;
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(artifact.chunk_count);
  });

  it('moves batch by batch in the background: the file is ready and keyword-searchable while its vectors come', async () => {
    const u = await upstream();
    // The first batch is answered, the second held: the file is seen part-way, whatever the machine's speed.
    const gate = u.hold('/v1/embeddings', 1);
    const core = boot(await dataDirWith(u, 'text-embedding-hash'));
    const { dataset, get } = await addFile(core, 'harbour.md', LONG);
    await vi.waitFor(() => expect(gate.held()).toBe(1), { timeout: 20_000, interval: 20 });
    // Seen part-way: ready, some chunks embedded, not all.
    const partWay = await get();
    expect(partWay.status).toBe('ready');
    expect(partWay.embedding?.state).toBe('embedding');
    expect(partWay.embedding?.done).toBeGreaterThan(0);
    expect(partWay.embedding?.done).toBeLessThan(partWay.chunk_count);
    // Search does not wait for the embedding: it answers from the keyword index now.
    const found = (await core.service.invoke('search.query', { query: 'ferry 7', dataset_ids: [dataset.id], mode: 'keyword' }, core.desktopCaller())) as {
      data: Array<{ artifact_key: string }>;
    };
    expect(found.data[0]?.artifact_key).toBe('harbour.md');
    // `auto` ranks by keyword while the vectors are part-way, and says how far they are; hybrid once they are all there.
    const auto = () => core.service.invoke('search.query', { query: 'ferry 7', dataset_ids: [dataset.id] }, core.desktopCaller()) as Promise<{ mode: string; vectors: { embedded: number; total: number } | null }>;
    const early = await auto();
    expect(early.mode).toBe('keyword');
    expect(early.vectors?.embedded).toBeGreaterThan(0);
    expect(early.vectors?.embedded).toBeLessThan(early.vectors?.total ?? 0);
    gate.release();
    await core.runtime.ingest.idle();
    expect((await get()).embedding?.state).toBe('ready');
    const late = await auto();
    expect(late.mode).toBe('hybrid');
    expect(late.vectors?.embedded).toBe(late.vectors?.total);
  });

  it('a failing embedding model leaves the file ready, searchable by keyword, with the reason', async () => {
    const u = await upstream();
    const core = boot(await dataDirWith(u, 'status:500'));
    const { get } = await addFile(core, 'notes.md', '# Notes\n\nThe pier opens at dawn.');
    await core.runtime.ingest.idle();
    const artifact = await get();
    expect(artifact.status).toBe('ready');
    expect(artifact.embedding).toMatchObject({ state: 'failed', done: 0, total: artifact.chunk_count });
    expect(artifact.embedding?.error).toMatch(/500/);
  });

  it('is null without an embedding model', async () => {
    const u = await upstream();
    const core = boot(await dataDirWith(u, null));
    const { get } = await addFile(core, 'notes.md', '# Notes\n\nThe pier opens at dawn.');
    await core.runtime.ingest.idle();
    expect((await get()).embedding).toBeNull();
  });

  it('resumes after a restart where it stopped', async () => {
    const u = await upstream();
    const dir = await dataDirWith(u, 'text-embedding-hash');
    // One batch through, the next held until the restart begins: it stops part-way, whatever the machine's speed.
    const gate = u.hold('/v1/embeddings', 1);
    const first = boot(dir, true);
    const { dataset } = await addFile(first, 'harbour.md', LONG);
    const progress = async (core: Core) => (await core.service.invoke('artifacts.get', { kb_id: dataset.kb_id, key: 'harbour.md' }, core.desktopCaller())) as Artifact;
    await vi.waitFor(() => expect(gate.held()).toBe(1), { timeout: 20_000, interval: 20 });
    expect((await progress(first)).embedding?.done).toBeGreaterThan(0);
    // A restart: shutdown begins (no further batch is started), the held batch finishes and is stored,
    // and the first process is gone before the next starts.
    const closing = first.close();
    gate.release();
    await closing;

    const second = boot(dir);
    const resumed = await progress(second);
    expect(resumed.embedding?.state).toBe('embedding');
    expect(resumed.embedding?.done).toBeGreaterThan(0);
    expect(resumed.embedding?.done).toBeLessThan(resumed.chunk_count);
    await second.runtime.ingest.idle();
    expect((await progress(second)).embedding).toEqual({ state: 'ready', done: resumed.chunk_count, total: resumed.chunk_count, error: null });
  });
});
