import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

interface Workflow {
  id: string;
  name: string;
  description: string | null;
  system_prompt: string;
  model_endpoint_override: string | null;
  dataset_ids: string[];
  agentic: boolean;
  active: boolean;
  builtin: boolean;
}
interface Problem {
  code: string;
  detail: string;
}

let h: Harness;
let memberKey: string;
let echo: string;

beforeAll(async () => {
  h = await startChatHarness();
  echo = await h.addModel('Echo', 'echo');
  memberKey = (await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'wes@example.com', name: 'Wes' })).body.api_key.key;
});
afterAll(() => h.close());

const create = (body: Record<string, unknown>, token?: string) => h.json<Workflow & Problem>('/workflows', 'POST', body, token);
const list = (query = '', token?: string) => h.json<{ data: Workflow[] } & Problem>(`/workflows${query}`, 'GET', undefined, token);
const patch = (id: string, body: Record<string, unknown>, token?: string) => h.json<Workflow & Problem>(`/workflows/${id}`, 'PATCH', body, token);

/** The system message the upstream received with its last chat request. */
function lastSystemPrompt(): string | undefined {
  const request = h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
  const messages = (request?.body as { messages: Array<{ role: string; content: string }> }).messages;
  return messages.find((m) => m.role === 'system')?.content;
}

async function setSimpleChat(on: boolean) {
  const { version } = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
  const res = await h.json('/admin/config', 'PATCH', { values: { 'features.simple_chat': on }, base_version: version });
  expect(res.status).toBe(200);
}

describe('workflows', () => {
  it('an admin creates one; everyone lists the active ones; it is renamed, deactivated, reactivated and deleted', async () => {
    const created = await create({ name: 'Legal review', description: 'Contracts, clause by clause', system_prompt: 'You review contracts.', model_endpoint_override: echo });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^wf_/), name: 'Legal review', active: true, builtin: false, agentic: false, dataset_ids: [], model_endpoint_override: echo });
    const id = created.body.id;

    expect((await list('', memberKey)).body.data.map((w) => w.id)).toContain(id);
    expect((await create({ name: 'Legal review', system_prompt: 'again' })).status).toBe(409);

    const renamed = await patch(id, { name: 'Contract review', active: false });
    expect(renamed.body).toMatchObject({ name: 'Contract review', active: false });
    expect((await list('', memberKey)).body.data.map((w) => w.id)).not.toContain(id);
    // Admins may see the inactive ones, members may not ask.
    expect((await list('?include_inactive=true')).body.data.find((w) => w.id === id)).toMatchObject({ active: false });
    expect((await list('?include_inactive=true', memberKey)).status).toBe(403);

    expect((await patch(id, { active: true })).body.active).toBe(true);
    expect((await h.json(`/workflows/${id}`, 'DELETE')).status).toBe(204);
    expect((await h.json(`/workflows/${id}`, 'DELETE')).status).toBe(404);
    expect((await list('?include_inactive=true')).body.data.map((w) => w.id)).not.toContain(id);
  });

  it('members get 403 on writes; bad input is 400, unknown ids 404', async () => {
    expect((await create({ name: 'Mine', system_prompt: 'x' }, memberKey)).status).toBe(403);
    const bad = await create({ name: '', system_prompt: '   ' });
    expect(bad.status).toBe(400);
    expect((await create({ name: 'Bad model', system_prompt: 'x', model_endpoint_override: 'mdl_nope' })).status).toBe(404);
    expect((await create({ name: 'Bad dataset', system_prompt: 'x', dataset_ids: ['ds_nope'] })).status).toBe(404);
    expect((await patch('wf_nope', { active: false })).status).toBe(404);
    expect((await patch('not-an-id', { active: false })).status).toBe(400);
  });

  it('Simple Chat follows [features] simple_chat live, and cannot be edited or deleted', async () => {
    const ids = async () => (await list('', memberKey)).body.data.map((w) => w.id);
    expect(await ids()).not.toContain('wf_simplechat');
    const refused = await h.json<Problem>('/chat', 'POST', { message: 'hi', workflow_id: 'wf_simplechat' }, memberKey);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/not active/);

    await setSimpleChat(true);
    const listed = (await list('', memberKey)).body.data;
    expect(listed[0]).toMatchObject({ id: 'wf_simplechat', name: 'Simple Chat', builtin: true, active: true });
    expect((await h.json('/chat', 'POST', { message: 'hi', workflow_id: 'wf_simplechat', model_endpoint_override: echo }, memberKey)).status).toBe(200);
    expect(lastSystemPrompt()).toMatch(/helpful assistant/);
    expect((await patch('wf_simplechat', { active: false })).status).toBe(409);
    expect((await h.json('/workflows/wf_simplechat', 'DELETE')).status).toBe(409);

    await setSimpleChat(false);
    expect(await ids()).not.toContain('wf_simplechat');
  });

  it('a chat with a workflow uses its system prompt and model; the thread remembers it', async () => {
    const wf = (await create({ name: 'Pirate', system_prompt: 'Answer like a pirate.', model_endpoint_override: echo })).body;
    const first = await h.json<{ thread_id: string; message: { content: string; model_id: string; routing: { mode: string } } }>('/chat', 'POST', { message: 'ahoy', workflow_id: wf.id }, memberKey);
    expect(first.status).toBe(200);
    // The workflow's model answered (override mode), with the workflow's system prompt first.
    expect(first.body.message).toMatchObject({ content: 'You said: ahoy', model_id: echo, routing: { mode: 'override' } });
    expect(lastSystemPrompt()).toBe('Answer like a pirate.');
    const thread = await h.json<{ workflow_id: string | null }>(`/threads/${first.body.thread_id}`, 'GET', undefined, memberKey);
    expect(thread.body.workflow_id).toBe(wf.id);

    // A thread's own system prompt comes after the workflow's; later messages need not name the workflow.
    await h.json(`/threads/${first.body.thread_id}`, 'PATCH', { system_prompt: 'Keep it short.' }, memberKey);
    expect((await h.json('/chat', 'POST', { thread_id: first.body.thread_id, message: 'again' }, memberKey)).status).toBe(200);
    expect(lastSystemPrompt()).toBe('Answer like a pirate.\n\nKeep it short.');

    // Deactivated, it is refused by name, and the thread goes on without it.
    await patch(wf.id, { active: false });
    const refused = await h.json<Problem>('/chat', 'POST', { message: 'ahoy', workflow_id: wf.id }, memberKey);
    expect(refused.status).toBe(409);
    expect((await h.json('/chat', 'POST', { thread_id: first.body.thread_id, message: 'still there?', model_endpoint_override: echo }, memberKey)).status).toBe(200);
    expect(lastSystemPrompt()).toBe('Keep it short.');
  });

  it('an unknown workflow is 404 and leaves no thread behind', async () => {
    const before = (await h.json<{ data: unknown[] }>('/threads', 'GET', undefined, memberKey)).body.data.length;
    const res = await h.json<Problem>('/chat', 'POST', { message: 'hi', workflow_id: 'wf_doesnotexist' }, memberKey);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await h.json<{ data: unknown[] }>('/threads', 'GET', undefined, memberKey)).body.data).toHaveLength(before);
    expect((await h.json('/threads', 'POST', { workflow_id: 'wf_doesnotexist' }, memberKey)).status).toBe(404);
  });
});
