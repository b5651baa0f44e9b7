import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_TEXT } from '../fixtures/upstream.js';
import { VILLAGE_DOCS as DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { collectChat, readSse } from '../support/sse.js';

type Thought = { id: string; kind: string; content: string };
type StoredThought = Thought & { message_id: string; dataset_id: string | null; step: number; created_at: string };
type Citation = { index: number; dataset_id: string; artifact_key: string };
type Msg = { id: string; content: string; status: string; model_id: string; citations: Citation[]; thoughts: Thought[] };

let h: Harness;
let village: { id: string; kb_id: string };

const dataset = (name: string, files: Record<string, string>) => h.dataset(name, files);

const thoughtsOf = async (messageId: string, token?: string) => h.json<{ data: StoredThought[] }>(`/messages/${messageId}/thoughts`, 'GET', undefined, token);
const chat = (body: Record<string, unknown>) => h.json<{ thread_id: string; message: Msg }>('/chat', 'POST', body);
const stream = (body: Record<string, unknown>, signal?: AbortSignal) =>
  h.api('/chat', { method: 'POST', body: JSON.stringify({ ...body, stream: true }), ...(signal ? { signal } : {}) });

beforeAll(async () => {
  h = await startChatHarness();
  village = await dataset('Village', DOCS);
});
afterAll(() => h.close());

describe('agentic answers with the built-in extractive model (deterministic planner)', () => {
  it('plans from the question’s terms, searches, reads the best passages, then answers by quoting them with citations', async () => {
    const res = await chat({ message: 'When is the lighthouse lamp lit?', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    expect(res.status).toBe(200);
    const message = res.body.message;
    expect(message.status).toBe('complete');
    // One search, then a read of each of the best passages (at most two), then the answer.
    expect(message.thoughts.map((t) => t.kind).join(' ')).toMatch(/^plan tool_call observation (tool_call observation ){1,2}answer$/);
    const [plan, search, found, read] = message.thoughts;
    expect(plan?.content).toBe('Search the dataset "Village" for the terms "lighthouse", "lamp", "lit", read the 2 best passages with their context, then answer by quoting the most relevant passages with citations.');
    expect(search?.content).toBe('search_datasets {"query":"lighthouse lamp lit"}');
    // What the search returned, not a story about it: the best passage is the lighthouse file.
    expect(found?.content).toMatch(/^\d+ in Village:\n\[1\] lighthouse\.md/);
    expect(read?.content).toBe('read_passage {"passage":1}');
    expect(message.thoughts[4]?.content).toContain('The lighthouse lamp is lit at dusk by the keeper');
    expect(message.thoughts.at(-1)?.content).toMatch(/^Answer by quoting the sentences that hold the most of the question's terms, from passages? \[1\]/);
    expect(message.content).toMatch(/^From your datasets:\n\n> .*dusk.* \[1\]/);
    expect(message.citations[0]).toMatchObject({ index: 1, dataset_id: village.id, artifact_key: 'lighthouse.md' });
  });

  it('stores every step, served by GET /messages/{id}/thoughts in order with the dataset each concerned', async () => {
    const res = await chat({ message: 'how are apple trees pruned', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    const stored = await thoughtsOf(res.body.message.id);
    expect(stored.status).toBe(200);
    expect(stored.body.data.map((t) => ({ id: t.id, kind: t.kind, content: t.content }))).toEqual(res.body.message.thoughts);
    expect(stored.body.data.map((t) => t.step)).toEqual(stored.body.data.map((_, i) => i + 1));
    for (const t of stored.body.data) {
      expect(t.id).toMatch(/^th_/);
      expect(t.message_id).toBe(res.body.message.id);
      expect(t.created_at).toMatch(/Z$/);
      // One dataset attached: every step concerns it.
      expect(t.dataset_id).toBe(village.id);
    }
  });

  it('streams the steps as thought events after message.created and before the text; the completed message carries them', async () => {
    const events = await collectChat(await stream({ message: 'what does sourdough need', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' }));
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('message.created');
    const firstThought = kinds.indexOf('thought');
    const firstDelta = kinds.indexOf('delta');
    expect(firstThought).toBe(1);
    expect(kinds.lastIndexOf('thought')).toBeLessThan(firstDelta);
    expect(kinds.indexOf('citation')).toBeLessThan(firstDelta);
    const streamed = events.filter((e) => e.event === 'thought').map((e) => e.data);
    expect(streamed.map((t) => t.kind).join(' ')).toMatch(/^plan tool_call observation (tool_call observation ){1,2}answer$/);
    // A new thread: its title (the question's key phrase) follows the answer's end.
    expect(events.at(-1)?.event).toBe('thread.updated');
    const completed = events.at(-2);
    expect(completed?.event).toBe('message.completed');
    expect((completed?.data.message as Msg).thoughts).toEqual(streamed);
    expect(events.filter((e) => e.event === 'delta').map((e) => String(e.data.content)).join('')).toMatch(/sourdough|Sourdough/);
  });

  it('without a dataset: it checks what is attached, and says it has nothing to draw on', async () => {
    const res = await chat({ message: 'When is the lamp lit?', agentic: true, model_endpoint_override: 'mdl_extractive' });
    expect(res.body.message.thoughts).toEqual([
      expect.objectContaining({ kind: 'plan', content: expect.stringMatching(/^No dataset is attached/) }),
      expect.objectContaining({ kind: 'tool_call', content: 'list_datasets' }),
      expect.objectContaining({ kind: 'observation', content: 'No dataset is attached to this conversation.' }),
      expect.objectContaining({ kind: 'answer', content: 'Nothing to draw on: saying so.' }),
    ]);
    expect(res.body.message.content).toMatch(/none is attached here/);
  });

  it('a plain answer has no thoughts', async () => {
    const res = await chat({ message: 'When is the lamp lit?', dataset_ids: [village.id], model_endpoint_override: 'mdl_extractive' });
    expect(res.body.message.thoughts).toEqual([]);
    expect((await thoughtsOf(res.body.message.id)).body).toEqual({ data: [] });
  });

  it('dynamic routing with agentic: true answers agentically too (offline: the extractive model)', async () => {
    const local = await startChatHarness();
    try {
      const ds = await local.dataset('Solo', { 'tides.txt': 'Tides rise twice a day along the harbour wall.' });
      const res = await local.json<{ message: Msg & { routing: { mode: string } } }>('/chat', 'POST', { message: 'how often do tides rise', dataset_ids: [ds.id], agentic: true });
      expect(res.body.message.routing.mode).toBe('dynamic');
      expect(res.body.message.thoughts.map((t) => t.kind)).toEqual(['plan', 'tool_call', 'observation', 'tool_call', 'observation', 'answer']);
      expect(res.body.message.content).toContain('twice a day');
    } finally {
      await local.close();
    }
  });
});

describe('agentic answers with native tool calling', () => {
  it('an OpenAI-compatible model is offered the tools, calls search_datasets, gets its result and answers from it', async () => {
    const tool = await h.addModel('Tool caller', 'tool');
    const res = await chat({ message: 'Who lights the lighthouse lamp?', dataset_ids: [village.id], agentic: true, model_endpoint_override: tool });
    const message = res.body.message;
    expect(message.status).toBe('complete');
    expect(message.thoughts.map((t) => t.kind)).toEqual(['plan', 'tool_call', 'observation', 'answer']);
    expect(message.thoughts[1]?.content).toBe('search_datasets {"query":"Who lights the lighthouse lamp?"}');
    expect(message.thoughts[2]?.content).toMatch(/\[1\] lighthouse\.md/);
    expect(message.content).toMatch(/^Tool said: \[1\] lighthouse\.md/);
    expect(message.thoughts[3]?.content).toBe(`Answered after 1 tool call, citing ${message.content.includes('[2]') ? '[1], [2]' : '[1]'}${message.content.includes('[3]') ? ', [3]' : ''}.`);
    expect(message.citations[0]).toMatchObject({ index: 1, artifact_key: 'lighthouse.md', dataset_id: village.id });

    const calls = h.upstream.requests.filter((r) => r.model === 'tool').slice(-2);
    const first = calls[0]?.body as { tools: Array<{ function: { name: string } }> };
    expect(first.tools.map((t) => t.function.name)).toEqual(['search_datasets', 'read_passage', 'open_artifact', 'list_datasets', 'list_files']);
    const second = calls[1]?.body as { messages: Array<{ role: string; tool_call_id?: string; content: string }> };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^\[1\] lighthouse\.md/) });
  });

  it('open_artifact reads the beginning of a file by its key, numbered for citing; list_files shows the keys', async () => {
    const opener = await h.addModel('Opener', 'tool-call:open_artifact:{"key":"orchard.md"}');
    const res = await chat({ message: 'what is in the orchard file', dataset_ids: [village.id], agentic: true, model_endpoint_override: opener });
    expect(res.body.message.thoughts.map((t) => t.kind)).toEqual(['plan', 'tool_call', 'observation', 'answer']);
    expect(res.body.message.thoughts[1]?.content).toBe('open_artifact {"key":"orchard.md"}');
    expect(res.body.message.content).toMatch(/^Tool said: \[1\] orchard\.md, the beginning \(1 of 1 passage\)\n.*Apple trees are pruned/s);
    expect(res.body.message.citations).toEqual([expect.objectContaining({ index: 1, artifact_key: 'orchard.md', dataset_id: village.id })]);

    const lister = await h.addModel('Lister', 'tool-call:list_files:{}');
    const listed = await chat({ message: 'which files', dataset_ids: [village.id], agentic: true, model_endpoint_override: lister });
    expect(listed.body.message.thoughts[2]?.content).toMatch(/^Village: 3 files\n- lighthouse\.md \(ready, 1 passage\)\n/);
    const missing = await h.addModel('Missing', 'tool-call:open_artifact:{"key":"nope.md"}');
    const none = await chat({ message: 'open it', dataset_ids: [village.id], agentic: true, model_endpoint_override: missing });
    expect(none.body.message.thoughts[2]?.content).toBe('No attached dataset has a file "nope.md". list_files shows the keys.');
  });

  it('an Anthropic model does the same through tool_use and tool_result', async () => {
    const claude = await h.json<{ id: string }>('/models', 'POST', { name: 'Claude tools', provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'ak-1', model: 'tool' });
    const res = await chat({ message: 'sourdough starter', dataset_ids: [village.id], agentic: true, model_endpoint_override: claude.body.id });
    expect(res.body.message.thoughts.map((t) => t.kind)).toEqual(['plan', 'tool_call', 'observation', 'answer']);
    expect(res.body.message.content).toMatch(/^Tool said: \[1\] bakery\.md/);
    const last = h.upstream.requests.filter((r) => r.protocol === 'anthropic').at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(last.messages.at(-1)).toMatchObject({ role: 'user', content: [expect.objectContaining({ type: 'tool_result' })] });
  });

  it('is bounded by [agents] max_steps: then the model may call no more tools and must answer', async () => {
    const state = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
    expect((await h.json('/admin/config', 'PATCH', { values: { 'agents.max_steps': 2 }, base_version: state.version })).status).toBe(200);
    try {
      const loop = await h.addModel('Tool loop', 'tool-loop');
      const res = await chat({ message: 'orchard scab', dataset_ids: [village.id], agentic: true, model_endpoint_override: loop });
      expect(res.body.message.thoughts.filter((t) => t.kind === 'tool_call')).toHaveLength(2);
      expect(res.body.message.content).toBe('Done after 2 tool results.');
      expect(h.upstream.requests.filter((r) => r.model === 'tool-loop').at(-1)?.body).toMatchObject({ tool_choice: 'none' });
    } finally {
      const now = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
      await h.json('/admin/config', 'PATCH', { values: { 'agents.max_steps': 6 }, base_version: now.version });
    }
  });
});

describe('agentic answers that fail over, fail, are cancelled, or are re-attached', () => {
  it('dynamic mode: a tool-calling model that fails before answering is skipped and leaves no step behind; the next one answers as an agent', async () => {
    const local = await startChatHarness();
    try {
      const ds = await local.dataset('Village', DOCS);
      const down = await local.addModel('Agent down', 'status:503', { capabilities: { quality: 9, strengths: ['general', 'agentic'] } });
      const res = await local.json<{ message: Msg & { routing: { skipped: Array<{ model_id: string }> } } }>('/chat', 'POST', { message: 'lighthouse lamp', dataset_ids: [ds.id], agentic: true });
      expect(res.body.message.routing.skipped.map((s) => s.model_id)).toEqual([down]);
      expect(res.body.message.model_id).toBe('mdl_extractive');
      // One plan: the failed model's never showed.
      expect(res.body.message.thoughts.map((t) => t.kind).join(' ')).toMatch(/^plan tool_call observation (tool_call observation ){1,2}answer$/);
      expect(res.body.message.thoughts[0]?.content).toMatch(/^Search the dataset "Village" for the terms "lighthouse", "lamp"/);
    } finally {
      await local.close();
    }
  });

  it('a stream that fails mid-answer keeps the thoughts so far and the partial text', async () => {
    const failing = await h.addModel('Tool then error', 'tool-then:error-mid:3');
    const events = await collectChat(await stream({ message: 'lighthouse keeper', dataset_ids: [village.id], agentic: true, model_endpoint_override: failing }));
    expect(events.at(-1)?.event).toBe('error');
    const messageId = String(events[0]?.data.message_id);
    const streamed = events.filter((e) => e.event === 'thought').map((e) => e.data.kind);
    expect(streamed).toEqual(['plan', 'tool_call', 'observation']);
    const stored = await thoughtsOf(messageId);
    expect(stored.body.data.map((t) => t.kind)).toEqual(streamed);
    const page = await h.json<{ data: Msg[] }>(`/threads/${String(events[0]?.data.thread_id)}/messages`, 'GET');
    expect(page.body.data.at(-1)).toMatchObject({ status: 'error', content: 'w1 w2 w3', thoughts: events.filter((e) => e.event === 'thought').map((e) => e.data) });
  });

  it('a cancelled agent keeps its thoughts and the text so far; re-attaching replays the thought events', async () => {
    const slow = await h.addModel('Tool then slow', 'tool-then:slow:100');
    const abort = new AbortController();
    const seen: Array<{ id: number; event: string; data: Record<string, unknown> }> = [];
    let messageId = '';
    try {
      for await (const e of readSse(await stream({ message: 'apple trees', dataset_ids: [village.id], agentic: true, model_endpoint_override: slow }, abort.signal))) {
        const data = JSON.parse(e.data) as Record<string, unknown>;
        seen.push({ id: Number(e.id), event: e.event ?? '', data });
        if (e.event === 'message.created') messageId = String(data.message_id);
        if (e.event === 'delta') abort.abort();
      }
    } catch {
      // the client went away; the answer goes on
    }
    // Re-attach after message.created: the thoughts come again, in order, with the same ids.
    const replayed: Array<{ id: number; event: string; data: Record<string, unknown> }> = [];
    const reattached = await h.api(`/chat/${messageId}/stream`, { headers: { 'last-event-id': '0' } });
    for await (const e of readSse(reattached)) {
      replayed.push({ id: Number(e.id), event: e.event ?? '', data: JSON.parse(e.data) as Record<string, unknown> });
      if (replayed.filter((r) => r.event === 'delta').length === 2) break;
    }
    expect(replayed[0]?.id).toBe(1);
    const liveThoughts = seen.filter((e) => e.event === 'thought');
    expect(replayed.filter((e) => e.event === 'thought')).toEqual(liveThoughts);

    const cancelled = await h.json<{ message: Msg }>(`/chat/${messageId}/cancel`, 'POST', {});
    expect(cancelled.body.message.status).toBe('cancelled');
    expect(cancelled.body.message.content.length).toBeGreaterThan(0);
    expect(SLOW_TEXT.startsWith(cancelled.body.message.content.trimEnd())).toBe(true);
    expect(cancelled.body.message.thoughts.map((t) => t.kind)).toEqual(['plan', 'tool_call', 'observation']);
    expect((await thoughtsOf(messageId)).body.data.map((t) => t.id)).toEqual(liveThoughts.map((t) => t.data.id));

    // Once stored, a replay from storage carries the thoughts too.
    const again = await collectChat(await h.api(`/chat/${messageId}/stream`));
    expect(again.filter((e) => e.event === 'thought').map((e) => e.data.id)).toEqual(liveThoughts.map((t) => t.data.id));
  });
});

describe('GET /messages/{id}/thoughts and deletion', () => {
  it('answers 404 for a message that is not the caller’s or does not exist, 400 for a malformed id', async () => {
    const mine = await chat({ message: 'lamp', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'thoughts-other@example.com', name: 'Other' });
    expect((await thoughtsOf(mine.body.message.id, member.body.api_key.key)).status).toBe(404);
    expect((await thoughtsOf('msg_doesnotexist')).status).toBe(404);
    expect((await thoughtsOf('nope')).status).toBe(400);
  });

  it('deleting any dataset an agentic call drew on deletes all the call’s thoughts; other calls keep theirs', async () => {
    const harbour = await dataset('Harbour', { 'ferry.md': '# Ferry\n\nThe ferry to the island leaves the harbour at seven, and the lighthouse keeper rides it on Sundays.\n' });
    const res = await chat({ message: 'lighthouse keeper ferry', dataset_ids: [village.id, harbour.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    const other = await chat({ message: 'lighthouse lamp', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    const before = (await thoughtsOf(res.body.message.id)).body.data;
    expect(before.some((t) => t.dataset_id === harbour.id && t.content.includes('island'))).toBe(true);
    // Steps that concern only the village (or no dataset) are still the call's: they go too.
    expect(before.some((t) => t.dataset_id !== harbour.id)).toBe(true);
    const otherBefore = (await thoughtsOf(other.body.message.id)).body.data;
    expect(otherBefore.length).toBeGreaterThan(0);

    expect((await h.api(`/datasets/${harbour.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await thoughtsOf(res.body.message.id)).body.data).toEqual([]);
    const page = await h.json<{ data: Msg[] }>(`/threads/${res.body.thread_id}/messages`, 'GET');
    expect(page.body.data.at(-1)?.thoughts).toEqual([]);
    expect((await thoughtsOf(other.body.message.id)).body.data).toEqual(otherBefore);
  });

  it('deleting a thread deletes its messages’ thoughts', async () => {
    const res = await chat({ message: 'lamp', dataset_ids: [village.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    expect((await h.api(`/threads/${res.body.thread_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await thoughtsOf(res.body.message.id)).status).toBe(404);
    expect(h.core.repos.thoughts.ofMessage(res.body.message.id)).toEqual([]);
  });
});
