import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { NO_DATASET_ANSWER } from '../../main/core/models/providers/extractive.js';
import { VILLAGE_DOCS as DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY, tempDir } from '../support/core.js';
import { bootWithEmbeddings } from '../support/embedded-core.js';
import { collectChat } from '../support/sse.js';
import { collectingLogger } from '../support/logger.js';
import { formFiles } from '../support/form-files.js';

type Citation = { index: number; dataset_id: string; artifact_key: string; snippet: string };
type Msg = { content: string; status: string; model_id: string; citations: Citation[] };

let h: Harness;
let dataset: { id: string; kb_id: string };

beforeAll(async () => {
  h = await startChatHarness();
  dataset = await h.dataset('Village', DOCS);
});
afterAll(() => h.close());

describe('chat over datasets', () => {
  it('the built-in model answers from the most relevant passages, with citations pointing at the source', async () => {
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'When is the lighthouse lamp lit, and by whom?', dataset_ids: [dataset.id] });
    expect(res.body.message.model_id).toBe('mdl_extractive');
    expect(res.body.message.citations[0]).toMatchObject({ index: 1, dataset_id: dataset.id, artifact_key: 'lighthouse.md' });
    expect(res.body.message.content).toContain('[1]');
    expect(res.body.message.content).toMatch(/dusk/);
  });

  it('datasets attached to the thread are used for every message; citations stream before the text', async () => {
    const thread = await h.json<{ id: string }>('/threads', 'POST', { dataset_ids: [dataset.id] });
    const events = await collectChat(await h.api('/chat', { method: 'POST', body: JSON.stringify({ thread_id: thread.body.id, message: 'how do I prune apple trees', stream: true }) }));
    const kinds = events.map((e) => e.event);
    expect(kinds.indexOf('citation')).toBeGreaterThan(0);
    expect(kinds.indexOf('citation')).toBeLessThan(kinds.indexOf('delta'));
    expect((events.find((e) => e.event === 'citation')?.data as Citation).artifact_key).toBe('orchard.md');
  });

  it('without a dataset, the built-in model says it has nothing to draw on', async () => {
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'When is the lamp lit?', model_endpoint_override: 'mdl_extractive' });
    expect(res.body.message.content).toBe(NO_DATASET_ANSWER);
    expect(res.body.message.citations).toEqual([]);
  });

  it('a generative model gets the passages as numbered context, and the answer keeps the citations', async () => {
    const context = await h.addModel('Context', 'context');
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: context });
    expect(res.body.message.content).toMatch(/^2 messages: system: Answer from the passages below, user: What does sourdough need\?$/);
    // The answer's call (the thread's title call may follow it).
    const sent = h.upstream.requests.findLast((r) => r.model === 'context' && JSON.stringify(r.body).includes('bakery.md'))?.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages[0]?.content).toMatch(/\[1\] bakery\.md/);
    // Passages in one language, a question in another: the answer follows the question's.
    expect(sent.messages[0]?.content).toContain("Answer in the language of the user's question");
    // The answer cites none of them, so it lists none: searched is not cited.
    expect(res.body.message.citations).toEqual([]);
  });

  it('an answer lists only the passages it cites, whatever was searched', async () => {
    const citing = await h.addModel('Citing', 'fixed:Feed the starter [1].');
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: citing });
    expect(res.body.message.citations.map((c) => [c.index, c.artifact_key])).toEqual([[1, 'bakery.md']]);
    const stored = await h.json<{ data: Msg[] }>(`/threads/${(res.body as unknown as { thread_id: string }).thread_id}/messages`, 'GET');
    expect(stored.body.data.at(-1)?.citations.map((c) => c.index)).toEqual([1]);
  });

  it('an unknown dataset is refused with 404', async () => {
    expect((await h.json('/chat', 'POST', { message: 'x', dataset_ids: ['ds_nope'] })).status).toBe(404);
    expect((await h.json('/threads', 'POST', { dataset_ids: ['ds_nope'] })).status).toBe(404);
  });
});

describe('processing after a restart', () => {
  it('files that were processing when Parley stopped are processed at the next start', async () => {
    const { dir, remove } = tempDir();
    try {
      const first = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY }));
      const owner = first.desktopCaller();
      const ds = (await first.service.invoke('datasets.create', { name: 'Restart' }, owner)) as { kb_id: string };
      const stored = ((await first.service.invoke('artifacts.upload', { kb_id: ds.kb_id, files: formFiles({ filename: 'tide.txt', mime_type: 'text/plain', bytes: 'High tide comes twice a day at the harbour.' }) }, owner)) as { data: [{ id: string }] }).data[0];
      // Stop before the queue gets to it: as if the app closed mid-processing.
      first.runtime.ingest.stop();
      await first.runtime.ingest.idle();
      first.repos.artifacts.setStatus(stored.id, 'processing', new Date().toISOString());
      await first.close();

      const warnings: string[] = [];
      const second = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', log: collectingLogger(warnings) }));
      expect(warnings.join('\n')).toMatch(/Resuming the processing of 1 file/);
      await second.runtime.ingest.idle();
      expect(second.repos.artifacts.get(stored.id)).toMatchObject({ status: 'ready' });
      await second.close();
    } finally {
      remove();
    }
  });
});

describe('hybrid search with an embedding model', () => {
  it('embeds chunks once indexed, and grounds answers with keyword and vector rankings fused', async () => {
    const e = await bootWithEmbeddings(DOCS);
    try {
      const { core, me, dataset: ds, upstream } = e;
      expect(core.repos.chunks.vectorIndex()).toMatchObject({ model: 'text-embedding-hash', dimensions: 64 });
      expect(e.embeddingCalls()).toBeGreaterThan(0);

      const answer = (await core.service.invoke('chat.send', { message: 'pruning apple trees in winter', dataset_ids: [ds.id], model_endpoint_override: 'mdl_extractive' }, me)) as { message: Msg };
      expect(answer.message.content, 'the built-in model answers, citing').toMatch(/\[1\]/);
      expect(answer.message.citations[0]?.artifact_key).toBe('orchard.md');
      // The question was embedded too: the vector ranking took part.
      expect(upstream.requests.filter((r) => r.path === '/v1/embeddings').at(-1)?.body).toMatchObject({ input: ['pruning apple trees in winter'] });
    } finally {
      await e.close();
    }
  });
});

describe('home suggestions', () => {
  it('suggest datasets with files ready and a prompt for each, with the carousel orientation from the config', async () => {
    const datasets = await h.json<{ orientation: string; data: Array<{ id: string; ready_count: number }> }>('/suggestions/datasets', 'GET');
    expect(datasets.body.orientation).toBe('horizontal');
    expect(datasets.body.data.find((d) => d.id === dataset.id)?.ready_count).toBe(3);
    const prompts = await h.json<{ data: Array<{ dataset_id: string | null; prompt: string }> }>('/suggestions/prompts', 'GET');
    expect(prompts.body.data.some((p) => p.dataset_id === dataset.id)).toBe(true);
    expect(prompts.body.data.some((p) => p.dataset_id === null)).toBe(true);
  });
});
