import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { person, secondOrganization } from '../support/people.js';

/**
 * Issue 29, item 4: a `/v1/chat/completions` request grounded on datasets through the extra body
 * field `parley`, driven by the official `openai` SDK as any client would.
 */

type Citation = { index: number; dataset_id: string; artifact_key: string; snippet: string; attribution?: string };
type Parley = { citations: Citation[] };
type StoredMessage = { role: string; content: string; citations: Citation[] };

let h: Harness;
let client: OpenAI;
let village: { id: string; kb_id: string };

beforeAll(async () => {
  h = await startChatHarness();
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
  village = await h.dataset('Village', VILLAGE_DOCS);
});
afterAll(() => h.close());

const LAMP = 'When is the lighthouse lamp lit, and by whom?';
/** `parley` as the SDK sends an extra body field: the request's own params carry it unchanged. */
const grounded = (model: string, parley: Record<string, unknown>, content = LAMP) =>
  ({ model, messages: [{ role: 'user' as const, content }], parley }) as OpenAI.ChatCompletionCreateParamsNonStreaming;
const parleyOf = (message: unknown) => (message as { parley?: Parley }).parley;
const threadCount = async () => (await h.json<{ data: unknown[] }>('/threads?limit=200', 'GET')).body.data.length;
const lastUpstreamMessages = () =>
  (h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as { messages: Array<{ role: string; content: string }> }).messages;

describe('model: "auto" with datasets routes as the app does with datasets attached', () => {
  it('prefers the model with a retrieval strength, which the same request without datasets does not', async () => {
    const general = await h.addModel('General', 'fixed:I know nothing of lamps.', { capabilities: { quality: 7, strengths: ['general'] } });
    const retriever = await h.addModel('Retriever', 'fixed:The keeper lights it at dusk [1].', { capabilities: { quality: 6, strengths: ['general', 'retrieval'] } });

    const answer = await client.chat.completions.create(grounded('auto', { dataset_ids: [village.id] }));
    expect(answer.model).toBe(retriever);
    expect(answer.choices[0]?.message.content).toBe('The keeper lights it at dusk [1].');
    expect(parleyOf(answer.choices[0]?.message)?.citations).toEqual([expect.objectContaining({ index: 1, dataset_id: village.id, artifact_key: 'lighthouse.md', attribution: 'marker' })]);
    // The model was given the passages, numbered as cited.
    expect(lastUpstreamMessages()[0]?.content).toMatch(/^Answer from the passages below[\s\S]*\[1\] lighthouse\.md/);

    const plain = await client.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: LAMP }] });
    expect(plain.model).toBe(general);
    expect(parleyOf(plain.choices[0]?.message)).toBeUndefined();
    await h.json(`/models/${general}`, 'DELETE');
    await h.json(`/models/${retriever}`, 'DELETE');
  });
});

describe('grounded answers carry their citations', () => {
  it('the built-in model answers from the dataset, plain and streamed, citing the right file; nothing is stored', async () => {
    const before = await threadCount();
    const answer = await client.chat.completions.create(grounded('mdl_extractive', { dataset_ids: [village.id] }));
    const message = answer.choices[0]?.message;
    expect(message?.content).toMatch(/dusk.*\[1\]/);
    expect(parleyOf(message)?.citations[0]).toMatchObject({ index: 1, dataset_id: village.id, artifact_key: 'lighthouse.md', attribution: 'marker' });

    const stream = await client.chat.completions.create({ ...grounded('mdl_extractive', { dataset_ids: [village.id] }, 'how do I prune apple trees'), stream: true });
    let text = '';
    const withParley: Array<{ finish: string | null; parley: Parley }> = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? '';
      const parley = parleyOf(choice?.delta);
      if (parley) withParley.push({ finish: choice?.finish_reason ?? null, parley });
    }
    expect(text).toMatch(/winter.*\[1\]/);
    // Only the last chunk, the one that ends the answer, carries the sources.
    expect(withParley).toHaveLength(1);
    expect(withParley[0]?.finish).toBe('stop');
    expect(withParley[0]?.parley.citations[0]).toMatchObject({ index: 1, artifact_key: 'orchard.md' });
    expect(await threadCount()).toBe(before);
  });

  it('a generative model gets the passages; the SDK stream helper puts the sources on the final message', async () => {
    const citing = await h.addModel('Citing', 'fixed:Feed the starter [1].');
    const stream = client.chat.completions.stream({ model: citing, messages: [{ role: 'user', content: 'What does sourdough need?' }], parley: { dataset_ids: [village.id] } } as Parameters<OpenAI['chat']['completions']['stream']>[0]);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Feed the starter [1].');
    expect(parleyOf(final.choices[0]?.message)?.citations.map((c) => [c.index, c.artifact_key])).toEqual([[1, 'bakery.md']]);
    expect(lastUpstreamMessages()[0]?.content).toMatch(/\[1\] bakery\.md/);
  });

  it('an answer lists only what it cites: searched is not cited', async () => {
    const context = await h.addModel('Context', 'context');
    const answer = await client.chat.completions.create(grounded(context, { dataset_ids: [village.id] }, 'What does sourdough need?'));
    expect(answer.choices[0]?.message.content).toBe('2 messages: system: Answer from the passages below, user: What does sourdough need?');
    expect(parleyOf(answer.choices[0]?.message)?.citations).toEqual([]);
  });

  it('agentic: true answers through the agent, cited', async () => {
    const answer = await client.chat.completions.create(grounded('mdl_extractive', { dataset_ids: [village.id], agentic: true }, 'When is the lighthouse lamp lit?'));
    expect(answer.choices[0]?.message.content).toMatch(/^From your datasets:\n\n> .*dusk.* \[1\]/);
    expect(parleyOf(answer.choices[0]?.message)?.citations[0]).toMatchObject({ index: 1, dataset_id: village.id, artifact_key: 'lighthouse.md' });
  });
});

describe('parley.thread_id records the exchange in the app', () => {
  it('the question and the answer show in the thread, plain and streamed', async () => {
    const thread = await h.json<{ id: string }>('/threads', 'POST', { title: 'From a client' });
    const before = await threadCount();
    const answer = await client.chat.completions.create(grounded('mdl_extractive', { dataset_ids: [village.id], thread_id: thread.body.id }));
    const cited = parleyOf(answer.choices[0]?.message)?.citations ?? [];
    expect(cited[0]).toMatchObject({ artifact_key: 'lighthouse.md' });

    const stream = await client.chat.completions.create({ ...grounded('mdl_extractive', { dataset_ids: [village.id], thread_id: thread.body.id }, 'how do I prune apple trees'), stream: true });
    let streamed = '';
    let last: Parley | undefined;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.delta.content ?? '';
      last = parleyOf(chunk.choices[0]?.delta) ?? last;
    }

    const stored = await h.json<{ data: StoredMessage[] }>(`/threads/${thread.body.id}/messages`, 'GET');
    expect(stored.body.data.map((m) => [m.role, m.role === 'user' ? m.content : ''])).toEqual([
      ['user', LAMP],
      ['assistant', ''],
      ['user', 'how do I prune apple trees'],
      ['assistant', ''],
    ]);
    expect(stored.body.data[1]?.content).toBe(answer.choices[0]?.message.content);
    expect(stored.body.data[1]?.citations).toEqual(cited);
    expect(stored.body.data[3]?.content).toBe(streamed);
    expect(stored.body.data[3]?.citations).toEqual(last?.citations);
    expect(last?.citations[0]).toMatchObject({ artifact_key: 'orchard.md' });
    // Recorded in the thread given: no other thread was made.
    expect(await threadCount()).toBe(before);
  });

  it("another user's thread is 404, and nothing is written to it", async () => {
    const member = await person(h.api, 'member');
    const theirs = await h.json<{ id: string }>('/threads', 'POST', { title: 'Mine' }, member.key);
    await expect(client.chat.completions.create(grounded('mdl_extractive', { dataset_ids: [village.id], thread_id: theirs.body.id }))).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect((await h.json<{ data: unknown[] }>(`/threads/${theirs.body.id}/messages`, 'GET', undefined, member.key)).body.data).toEqual([]);
  });
});

describe('refusals', () => {
  it("another organization's dataset is 404, as on /api, streamed or not", async () => {
    const stranger = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: secondOrganization(h.core).key, maxRetries: 0 });
    await expect(stranger.chat.completions.create(grounded('mdl_extractive', { dataset_ids: [village.id] }))).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(stranger.chat.completions.create({ ...grounded('auto', { dataset_ids: [village.id] }), stream: true })).rejects.toMatchObject({ status: 404 });
    await expect(client.chat.completions.create(grounded('auto', { dataset_ids: ['ds_nope'] }))).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a malformed parley field is a 400 naming it', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['ds_1', /^parley$/],
      [{ dataset_ids: village.id }, /^parley\.dataset_ids$/],
      [{ dataset_ids: ['not-an-id'] }, /^parley\.dataset_ids\.0$/],
      [{ dataset_ids: [village.id], agentic: 'yes' }, /^parley\.agentic$/],
      [{ dataset_ids: [village.id], thread_id: 42 }, /^parley\.thread_id$/],
      [{ datasets: [village.id] }, /^parley/],
      [{}, /^parley\.dataset_ids$/],
    ];
    for (const [parley, param] of cases) {
      const request = { model: 'mdl_extractive', messages: [{ role: 'user', content: LAMP }], parley } as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const error = await client.chat.completions.create(request).catch((e: unknown) => e);
      expect(error, JSON.stringify(parley)).toMatchObject({ status: 400, code: 'invalid_argument' });
      expect((error as { param: string }).param, JSON.stringify(parley)).toMatch(param);
    }
  });

  it('tools cannot be combined with grounding (the answer is written as the app writes it): 400 naming tools', async () => {
    const tooling = await h.addModel('Tooling', 'tool');
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    await expect(client.chat.completions.create({ ...grounded(tooling, { dataset_ids: [village.id] }), tools })).rejects.toMatchObject({ status: 400, param: 'tools' });
  });
});
