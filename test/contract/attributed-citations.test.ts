import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { collectChat } from '../support/sse.js';

type Citation = { index: number; dataset_id: string; artifact_id: string; artifact_key: string; attribution?: string };
type Msg = { content: string; status: string; citations: Citation[] };

let h: Harness;
let dataset: { id: string; kb_id: string };
let bakeryId: string;

// What a small local model writes: the passage's facts in its own sentences, and no [n].
const UNMARKED = 'Sourdough bread needs a starter fed with flour and water. The dough rests overnight before baking at high heat.';

beforeAll(async () => {
  h = await startChatHarness();
  dataset = await h.dataset('Village', VILLAGE_DOCS);
  const artifacts = await h.json<{ data: Array<{ id: string; key: string }> }>(`/knowledge-bases/${dataset.kb_id}/artifacts`, 'GET');
  bakeryId = artifacts.body.data.find((a) => a.key === 'bakery.md')?.id ?? '';
});
afterAll(() => h.close());

describe('citations of an answer that writes no [n]', () => {
  it('cite the file the answer draws on, saying they were attributed by overlap', async () => {
    const model = await h.addModel('Unmarked', `fixed:${UNMARKED}`);
    const res = await h.json<{ thread_id: string; message: Msg }>('/chat', 'POST', { message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: model });
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe(UNMARKED);
    expect(res.body.message.citations.map((c) => ({ artifact_id: c.artifact_id, artifact_key: c.artifact_key, dataset_id: c.dataset_id, attribution: c.attribution }))).toEqual([
      { artifact_id: bakeryId, artifact_key: 'bakery.md', dataset_id: dataset.id, attribution: 'overlap' },
    ]);
    // The thread keeps them: reopened, the answer still lists its source.
    const stored = await h.json<{ data: Msg[] }>(`/threads/${res.body.thread_id}/messages`, 'GET');
    expect(stored.body.data.at(-1)?.citations.map((c) => [c.artifact_key, c.attribution])).toEqual([['bakery.md', 'overlap']]);
  });

  it('stream a citation event for the attributed passage before message.completed', async () => {
    const model = await h.addModel('Unmarked streaming', `fixed:${UNMARKED}`);
    const events = await collectChat(
      await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: model, stream: true }) }),
    );
    const attributed = events.findIndex((e) => e.event === 'citation' && (e.data as Citation).attribution === 'overlap');
    const completed = events.findIndex((e) => e.event === 'message.completed');
    expect(attributed).toBeGreaterThan(events.findLastIndex((e) => e.event === 'delta'));
    expect(attributed).toBeLessThan(completed);
    expect((events[attributed]?.data as Citation).artifact_id).toBe(bakeryId);
    expect(((events[completed]?.data as { message: Msg }).message.citations).map((c) => [c.artifact_key, c.attribution])).toEqual([['bakery.md', 'overlap']]);
  });

  it('an answer that draws on no passage cites none, and one with [n] keeps marker attribution', async () => {
    const unrelated = await h.addModel('Unrelated', 'fixed:Paris is the capital of France, and its museums open at nine.');
    const none = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: unrelated });
    expect(none.body.message.citations).toEqual([]);
    const marked = await h.addModel('Marked', 'fixed:Feed the starter [1].');
    const cited = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'What does sourdough need?', dataset_ids: [dataset.id], model_endpoint_override: marked });
    expect(cited.body.message.citations.map((c) => [c.index, c.artifact_key, c.attribution])).toEqual([[1, 'bakery.md', 'marker']]);
  });
});
