import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { bootWithEmbeddings } from '../support/embedded-core.js';

type Result = { chunk_id: number; dataset_id: string; kb_id: string; artifact_id: string; artifact_key: string; score: number; snippet: string; location: { start: number; end: number; section?: string } };
type Answer = { data: Result[]; mode: string; took_ms: number };

let h: Harness;
let village: { id: string; kb_id: string };
let other: { id: string; kb_id: string };

beforeAll(async () => {
  h = await startChatHarness();
  village = await h.dataset('Village', VILLAGE_DOCS);
  other = await h.dataset('Harbour', { 'harbour.md': '# Harbour\n\nThe harbour master rings the bell when the tide turns and the ferry leaves for the lighthouse island.\n' });
});
afterAll(() => h.close());

describe('POST /search', () => {
  it('answers the best passages of the datasets first, each with its dataset, file, snippet and location', async () => {
    const res = await h.json<Answer>('/search', 'POST', { query: 'When is the lighthouse lamp lit?', dataset_ids: [village.id] });
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('keyword');
    expect(res.body.took_ms).toBeGreaterThanOrEqual(0);
    const [best] = res.body.data;
    expect(best).toMatchObject({ dataset_id: village.id, kb_id: village.kb_id, artifact_key: 'lighthouse.md', location: { section: 'Lighthouse' } });
    expect(best?.artifact_id).toMatch(/^art_/);
    expect(best?.snippet).toMatch(/lamp is lit at dusk/);
    // Scores are best first.
    const scores = res.body.data.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('searches several datasets at once and says which each passage came from; limit caps the list', async () => {
    const both = await h.json<Answer>('/search', 'POST', { query: 'lighthouse', dataset_ids: [village.id, other.id], limit: 5 });
    expect(new Set(both.body.data.map((r) => r.dataset_id))).toEqual(new Set([village.id, other.id]));
    const one = await h.json<Answer>('/search', 'POST', { query: 'lighthouse', dataset_ids: [village.id, other.id], limit: 1 });
    expect(one.body.data).toHaveLength(1);
  });

  it('finds what chat cites: chat grounds its answers through the same retrieval', async () => {
    const question = 'how do I prune apple trees';
    const search = await h.json<Answer>('/search', 'POST', { query: question, dataset_ids: [village.id], limit: 6 });
    const chat = await h.json<{ message: { citations: Array<{ artifact_id: string; snippet: string }> } }>('/chat', 'POST', { message: question, dataset_ids: [village.id] });
    expect(chat.body.message.citations.map((c) => c.artifact_id)).toEqual(search.body.data.map((r) => r.artifact_id).slice(0, chat.body.message.citations.length));
    expect(chat.body.message.citations[0]?.snippet).toBe(search.body.data[0]?.snippet);
  });

  it('a question of stop words finds nothing, and says so with an empty list', async () => {
    const res = await h.json<Answer>('/search', 'POST', { query: 'the and of', dataset_ids: [village.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('finds a word inside a Chinese, Japanese or Thai sentence of an uploaded file, and shows it in the snippet', async () => {
    const policies = await h.dataset('Policies', {
      'policy.txt': '员工每周可以远程办公两天，设备补贴是一千二百欧元。\n\n会議室の予約は総務部が管理します。\n\nที่จอดรถอยู่ชั้นล่างของอาคารสำนักงาน\n',
    });
    for (const [query, shown] of [
      ['会議室', '会議室'],
      ['総務部', '総務部'],
      ['设备补贴是多少？', '设备补贴'],
      ['远程办公', '远程办公'],
      ['ที่จอดรถ', 'ที่จอดรถ'],
    ]) {
      const res = await h.json<Answer>('/search', 'POST', { query, dataset_ids: [policies.id] });
      expect(res.status, query).toBe(200);
      expect(res.body.data[0]?.artifact_key, query).toBe('policy.txt');
      expect(res.body.data[0]?.snippet, query).toContain(shown);
    }
    // Its particles and question words alone are stop words, as `the and of` are.
    expect((await h.json<Answer>('/search', 'POST', { query: '是什么？', dataset_ids: [policies.id] })).body.data).toEqual([]);
  });

  it('hybrid without an embedding model is a conflict that says what to configure', async () => {
    const res = await h.json<{ code: string; detail: string }>('/search', 'POST', { query: 'lamp', dataset_ids: [village.id], mode: 'hybrid' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.detail).toMatch(/embedding_model/);
  });

  it('refuses an unknown dataset with 404, and bad input with 400 naming the field', async () => {
    const unknown = await h.json<{ code: string }>('/search', 'POST', { query: 'lamp', dataset_ids: [village.id, 'ds_unknown'] });
    expect(unknown.status).toBe(404);
    const none = await h.json<{ errors: Array<{ path: string }> }>('/search', 'POST', { query: 'lamp', dataset_ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]?.path).toBe('dataset_ids');
    const blank = await h.json<{ errors: Array<{ path: string }> }>('/search', 'POST', { query: '   ', dataset_ids: [village.id] });
    expect(blank.status).toBe(400);
    expect(blank.body.errors[0]?.path).toBe('query');
    const tooMany = await h.json('/search', 'POST', { query: 'lamp', dataset_ids: [village.id], limit: 51 });
    expect(tooMany.status).toBe(400);
  });

  it('needs a signed-in caller', async () => {
    const res = await h.api('/search', { method: 'POST', body: JSON.stringify({ query: 'lamp', dataset_ids: [village.id] }), token: null });
    expect(res.status).toBe(401);
  });
});

describe('POST /search with an embedding model (over IPC)', () => {
  it('auto and hybrid fuse keyword and vector rankings; keyword leaves the vectors out', async () => {
    const e = await bootWithEmbeddings(VILLAGE_DOCS);
    try {
      const { core, me, dataset: ds } = e;
      const before = e.embeddingCalls();
      const hybrid = (await core.service.invoke('search.query', { query: 'pruning apple trees in winter', dataset_ids: [ds.id], mode: 'hybrid' }, me)) as Answer;
      expect(hybrid.mode).toBe('hybrid');
      expect(hybrid.data[0]?.artifact_key).toBe('orchard.md');
      expect(e.embeddingCalls()).toBe(before + 1);

      const auto = (await core.service.invoke('search.query', { query: 'sourdough starter', dataset_ids: [ds.id] }, me)) as Answer;
      expect(auto.mode).toBe('hybrid');
      expect(auto.data[0]?.artifact_key).toBe('bakery.md');

      const keywordOnly = (await core.service.invoke('search.query', { query: 'sourdough starter', dataset_ids: [ds.id], mode: 'keyword' }, me)) as Answer;
      expect(keywordOnly.mode).toBe('keyword');
      expect(e.embeddingCalls()).toBe(before + 2);
    } finally {
      await e.close();
    }
  });

  it('ranks the keyword half in its own thread once the first hybrid search has started it, with the same results', async () => {
    const e = await bootWithEmbeddings(VILLAGE_DOCS);
    try {
      const { core, me, dataset: ds } = e;
      const keywords = core.runtime.keywords;
      const ask = async () => (await core.service.invoke('search.query', { query: 'pruning apple trees in winter', dataset_ids: [ds.id], mode: 'hybrid' }, me)) as Answer;
      // The first one starts the thread and ranks in place meanwhile.
      const first = await ask();
      expect(keywords.served).toBe(0);
      expect(await keywords.start()).toBe(true);
      expect((await ask()).data).toEqual(first.data);
      expect(keywords.served).toBe(1);
    } finally {
      await e.close();
    }
  });
});
