import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootCore, type Core } from '../../main/boot.js';
import type { Caller } from '../../main/core/platform/context.js';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { TEST_ADMIN_KEY, tempDir } from './core.js';
import { formFiles } from './form-files.js';

export interface EmbeddedCore {
  core: Core;
  me: Caller;
  /** A dataset holding the given Markdown files, every chunk embedded. */
  dataset: { id: string; kb_id: string };
  upstream: Upstream;
  /** How many embeddings calls the upstream has had. */
  embeddingCalls(): number;
  close(): Promise<void>;
}

/**
 * A core whose `[retrieval] embedding_model` is an embeddings model on the deterministic upstream
 * (`text-embedding-hash`), with a dataset of `files` (key → Markdown) ingested and embedded.
 */
export async function bootWithEmbeddings(files: Record<string, string>): Promise<EmbeddedCore> {
  const upstream = await startUpstream();
  const { dir, remove } = tempDir();
  const first = bootCore({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY });
  const model = (await first.service.invoke(
    'models.create',
    { name: 'Embeddings', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'sk-e', model: 'text-embedding-hash' },
    first.desktopCaller(),
  )) as { id: string };
  await first.close();
  const file = join(dir, 'parley.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('embedding_model = ""', `embedding_model = "${model.id}"`));

  const core = bootCore({ dataDir: dir, appVersion: 't' });
  const me = core.desktopCaller();
  const dataset = (await core.service.invoke('datasets.create', { name: 'Hybrid' }, me)) as { id: string; kb_id: string };
  for (const [key, text] of Object.entries(files)) {
    await core.service.invoke('artifacts.upload', { kb_id: dataset.kb_id, files: formFiles({ filename: key, mime_type: 'text/markdown', bytes: text }) }, me);
  }
  await core.runtime.ingest.idle();
  return {
    core,
    me,
    dataset,
    upstream,
    embeddingCalls: () => upstream.requests.filter((r) => r.path === '/v1/embeddings').length,
    close: async () => {
      await core.close();
      remove();
      await upstream.close();
    },
  };
}
