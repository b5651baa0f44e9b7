import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

interface Counts {
  chats: number;
  messages: number;
  input_tokens: number;
  output_tokens: number;
  uploads: number;
}
interface Metrics {
  from: string;
  to: string;
  totals: Counts & { model_calls: number; active_users: number };
  per_user: Array<Counts & { user: { id: string; email: string; role: string; organization: { id: string; name: string } } }>;
  per_model: Array<{ model_id: string; name: string; calls: number; input_tokens: number; output_tokens: number }>;
  per_day: Array<{ day: string; messages: number; input_tokens: number; output_tokens: number }>;
}

let h: Harness;
let memberKey: string;
let memberId: string;
let modelId: string;
/**
 * The service's clock: from noon UTC today, a millisecond on at each reading, so the chats made
 * below and the metrics read after them fall on one day whenever the tests run (the period's end
 * is exclusive: what is counted must come before it).
 */
const NOON = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);
let ticks = 0;

beforeAll(async () => {
  h = await startChatHarness({ now: () => new Date(NOON.getTime() + ++ticks) });
  // The fixture reports exactly 7 input and 3 output tokens for every call of this model.
  modelId = await h.addModel('Metered', 'usage:7:3');
  const created = await h.json<{ user: { id: string }; api_key: { key: string } }>('/admin/users', 'POST', { email: 'mia@example.com', name: 'Mia' });
  memberKey = created.body.api_key.key;
  memberId = created.body.user.id;

  // A new chat is named by its model after the first answer ("ok" → "Ok"): a call counted like the others.
  const named = (threadId: string, token?: string) =>
    vi.waitFor(async () => expect((await h.json<{ title: string }>(`/threads/${threadId}`, 'GET', undefined, token)).body.title).toBe('Ok'));

  // The owner: one chat of two messages (and its title), two files through the multipart route.
  const first = await h.json<{ thread_id: string }>('/chat', 'POST', { message: 'first', model_endpoint_override: modelId });
  expect(first.status).toBe(200);
  await named(first.body.thread_id);
  expect((await h.json('/chat', 'POST', { thread_id: first.body.thread_id, message: 'second', model_endpoint_override: modelId })).status).toBe(200);
  const ds = await h.json<{ kb_id: string }>('/datasets', 'POST', { name: 'Harbour' });
  const form = new FormData();
  form.append('file', new Blob(['The pier was rebuilt in 1998.'], { type: 'text/plain' }), 'pier.txt');
  form.append('file', new Blob(['name,depth\nnorth,12\n'], { type: 'text/csv' }), 'depths.csv');
  expect((await h.api(`/knowledge-bases/${ds.body.kb_id}/artifacts`, { method: 'POST', body: form })).status).toBe(201);

  // The member: one chat of one message (and its title), one file announced through the signed-upload route.
  const hello = await h.json<{ thread_id: string }>('/chat', 'POST', { message: 'hello', model_endpoint_override: modelId }, memberKey);
  expect(hello.status).toBe(200);
  await named(hello.body.thread_id, memberKey);
  // Into a dataset of their own: only a dataset's owner (or an admin) uploads into it.
  const own = await h.json<{ kb_id: string }>('/datasets', 'POST', { name: 'Mia notes' }, memberKey);
  const upload = await h.json('/uploads', 'POST', { kb_id: own.body.kb_id, files: [{ key: 'notes.md', filename: 'notes.md', size: 12 }] }, memberKey);
  expect(upload.status).toBe(201);
});
afterAll(() => h.close());

const get = (query = '', token?: string) => h.json<Metrics & { code?: string; errors?: Array<{ path: string }> }>(`/admin/metrics${query}`, 'GET', undefined, token);

describe('GET /admin/metrics', () => {
  it('counts what was done, per user, per model and per day; totals are the sums', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const { totals, per_user, per_model, per_day } = res.body;
    const owner = per_user.find((u) => u.user.id !== memberId);
    const member = per_user.find((u) => u.user.id === memberId);
    expect(owner).toMatchObject({ chats: 1, messages: 2, input_tokens: 21, output_tokens: 9, uploads: 2, user: { role: 'super_admin', organization: { name: 'Personal' } } });
    expect(member).toMatchObject({ chats: 1, messages: 1, input_tokens: 14, output_tokens: 6, uploads: 1, user: { email: 'mia@example.com', role: 'member' } });
    expect(totals).toEqual({ chats: 2, messages: 3, input_tokens: 35, output_tokens: 15, uploads: 3, model_calls: 5, active_users: 2 });
    // The busiest user comes first.
    expect(per_user[0]?.user.id).toBe(owner?.user.id);
    expect(per_model).toEqual([{ model_id: modelId, name: 'Metered', calls: 5, input_tokens: 35, output_tokens: 15 }]);

    // Thirty days back from now touch 31 UTC days, each listed once, oldest first, today last.
    expect(per_day).toHaveLength(31);
    expect(per_day.map((d) => d.day)).toEqual([...per_day.map((d) => d.day)].sort());
    expect(per_day.at(-1)).toEqual({ day: NOON.toISOString().slice(0, 10), messages: 3, input_tokens: 35, output_tokens: 15 });
    expect(per_day.slice(0, -1).every((d) => d.messages === 0 && d.input_tokens === 0)).toBe(true);
  });

  it('counts only the period asked for', async () => {
    // One hour inside tomorrow (UTC): after everything counted above.
    const later = new Date(NOON.getTime() + 86_400_000);
    later.setUTCHours(1, 0, 0, 0);
    const res = await get(`?from=${encodeURIComponent(later.toISOString())}&to=${encodeURIComponent(new Date(later.getTime() + 3600_000).toISOString())}`);
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({ chats: 0, messages: 0, input_tokens: 0, output_tokens: 0, uploads: 0, model_calls: 0, active_users: 0 });
    expect(res.body.per_user).toHaveLength(2);
    expect(res.body.per_model).toEqual([]);
    expect(res.body.per_day).toHaveLength(1);
    // An offset is accepted and answered in UTC.
    const offset = await get('?from=2024-01-01T00:00:00%2B02:00&to=2024-01-03T00:00:00Z');
    expect(offset.status).toBe(200);
    expect(offset.body.from).toBe('2023-12-31T22:00:00.000Z');
    expect(offset.body.per_day.map((d) => d.day)).toEqual(['2023-12-31', '2024-01-01', '2024-01-02']);
  });

  it('members and trial users get 403', async () => {
    const member = await get('', memberKey);
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('forbidden');
    const trial = await h.json<{ token: string }>('/admin/user-tokens', 'POST', { expires_in: 3600 });
    expect((await get('', trial.body.token)).status).toBe(403);
  });

  it('refuses bad ranges with 400', async () => {
    for (const query of [
      '?from=2024-02-01T00:00:00Z&to=2024-01-01T00:00:00Z', // from after to
      '?from=2024-01-01T00:00:00Z&to=2024-01-01T00:00:00Z', // empty
      '?from=2023-01-01T00:00:00Z&to=2024-06-01T00:00:00Z', // longer than 366 days
      '?from=yesterday',
      '?to=2024-13-01T00:00:00Z',
      `?from=${encodeURIComponent(new Date(NOON.getTime() + 86_400_000).toISOString())}`, // in the future, to defaults to now
    ]) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('invalid_argument');
      expect(res.body.errors?.[0]?.path, query).toMatch(/^(from|to)$/);
    }
  });
});
