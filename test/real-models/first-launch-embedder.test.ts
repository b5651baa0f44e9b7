/**
 * An embedder from first launch, with the real all-MiniLM-L6-v2 GGUF: the folder of models shipped
 * with the app holds it, the configuration is the default one, and hybrid search works without
 * editing anything; choosing keyword only and back embeds what was uploaded meanwhile, and choosing
 * another model embeds the files already there again — all without a new upload.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { tempDir } from '../support/core.js';
import { realModel } from '../support/real-models.js';

interface SearchBody {
  data: Array<{ artifact_key: string }>;
  mode: 'keyword' | 'hybrid';
  vectors: { embedded: number; total: number } | null;
}
interface EmbeddingStatus {
  setting: string;
  model: { id: string; name: string; source: string } | null;
  vectors: { embedded: number; total: number } | null;
}
interface ArtifactBody {
  status: string;
  embedding: { state: string; done: number; total: number } | null;
}

const QUESTION = 'What should I do when my bike loses air?';
const WORKSHOP = {
  'bicycle.md': '# Bicycle\n\nHow to repair a flat tyre on a bicycle: remove the wheel, find the hole and patch the inner tube.\n',
  'lighthouse.md': '# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n',
  'bakery.md': '# Bakery\n\nSourdough bread needs a starter fed with flour and water; the dough rests overnight before baking at high heat.\n',
};
const WAIT = { timeout: 90_000, interval: 100 };

const data = tempDir('parley-first-launch-');
const bundled = tempDir('parley-bundled-');
const embedder = realModel('embedding');
let h: Harness;

beforeAll(async () => {
  symlinkSync(embedder.path, join(bundled.dir, embedder.file));
  // Only how llama.cpp runs here (one thread: two cores shared with the runner); [retrieval] is the default.
  writeFileSync(join(data.dir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  h = await startChatHarness({ dataDir: data.dir, bundledModelsDir: bundled.dir });
});

afterAll(async () => {
  await h?.close();
  data.remove();
  bundled.remove();
});

const search = (datasetId: string) => h.json<SearchBody>('/search', 'POST', { query: QUESTION, dataset_ids: [datasetId] });
const status = async () => (await h.json<EmbeddingStatus>('/search/embedding', 'GET')).body;
const choose = async (value: string) => {
  const config = await h.json<{ version: number }>('/admin/config', 'GET');
  const res = await h.json('/admin/config', 'PATCH', { values: { 'retrieval.embedding_model': value }, base_version: config.body.version });
  expect(res.status).toBe(200);
};
const artifact = async (kbId: string, key: string) => (await h.json<ArtifactBody>(`/knowledge-bases/${kbId}/artifacts/${key}`, 'GET')).body;

describe('an embedder from first launch', () => {
  let ds: { id: string; kb_id: string };

  it('searches hybrid with the bundled model and the default configuration, ranking a paraphrase first', async () => {
    ds = await h.dataset('Workshop', WORKSHOP);
    await vi.waitFor(async () => {
      const res = await search(ds.id);
      expect(res.body.mode).toBe('hybrid');
      expect(res.body.vectors?.embedded).toBe(res.body.vectors?.total);
      expect(res.body.data[0]?.artifact_key).toBe('bicycle.md');
    }, WAIT);
    const used = await status();
    expect(used.setting).toBe('');
    expect(used.model).toMatchObject({ source: 'bundled' });
    expect((await artifact(ds.kb_id, 'bicycle.md')).embedding).toMatchObject({ state: 'ready' });
  });

  it('keyword only and back embeds the files uploaded meanwhile, without a new upload', async () => {
    await choose('none');
    const keyword = await search(ds.id);
    expect(keyword.body).toMatchObject({ mode: 'keyword', vectors: null });
    const upload = new FormData();
    upload.append('file', new Blob(['# Garden\n\nWater the tomato plants deeply every morning during a summer heatwave.\n'], { type: 'text/markdown' }), 'garden.md');
    expect((await h.api(`/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: upload })).status).toBe(201);
    await h.core.runtime.ingest.idle();
    expect((await artifact(ds.kb_id, 'garden.md')).status).toBe('ready');

    await choose('auto');
    await vi.waitFor(async () => expect((await artifact(ds.kb_id, 'garden.md')).embedding).toMatchObject({ state: 'ready', done: 1, total: 1 }), WAIT);
    const res = await search(ds.id);
    expect(res.body.mode).toBe('hybrid');
    expect(res.body.data[0]?.artifact_key).toBe('bicycle.md');
  });

  it('choosing another model embeds the existing files again in the background', async () => {
    mkdirSync(join(data.dir, 'models'), { recursive: true });
    copyFileSync(embedder.path, join(data.dir, 'models', 'minilm-copy.gguf'));
    const models = await h.json<{ data: Array<{ id: string; local?: { purpose: string; found_in: string } }> }>('/models', 'GET');
    const other = models.body.data.find((m) => m.local?.purpose === 'embedding' && m.local.found_in === 'data_dir');
    expect(other).toBeDefined();
    const before = h.core.repos.chunks.vectorIndex()?.model;
    await choose(other!.id);
    await vi.waitFor(async () => {
      expect(h.core.repos.chunks.vectorIndex()?.model).toMatch(/^gguf:minilm-copy\.gguf:/);
      const now = await status();
      expect(now.model).toMatchObject({ id: other!.id, source: 'configured' });
      expect(now.vectors?.total).toBeGreaterThan(0);
      expect(now.vectors?.embedded).toBe(now.vectors?.total);
    }, WAIT);
    expect(before).toMatch(/^gguf:all-MiniLM-L6-v2\.F16\.gguf:/);
    for (const key of [...Object.keys(WORKSHOP), 'garden.md']) expect((await artifact(ds.kb_id, key)).embedding).toMatchObject({ state: 'ready' });
    const res = await search(ds.id);
    expect(res.body.mode).toBe('hybrid');
    expect(res.body.data[0]?.artifact_key).toBe('bicycle.md');
  });
});
