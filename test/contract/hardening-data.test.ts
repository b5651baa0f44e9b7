/**
 * Issue 10, items 3, 9 and 13, performed over HTTP: another user's upload, writing into another
 * user's dataset, and agent thoughts that outlive a dataset they drew on.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { call, person, trial, type Person } from '../support/people.js';

let h: Harness;
let alice: Person;
let bob: Person;
let tina: Person;
let admin: Person;

type Upload = { upload_id: string; status: string; files: { artifact_id: string; part_size: number; urls: { part: number; url: string }[] }[] };
type Ds = { id: string; kb_id: string; name: string };

const as = <T = Record<string, unknown>>(who: Person | null, path: string, method = 'GET', body?: unknown) =>
  call<T>(h.api, path, { method, ...(body === undefined ? {} : { body }), ...(who ? { token: who.key } : {}) });

async function datasetOf(who: Person, name: string): Promise<Ds> {
  const res = await as<Ds>(who, '/datasets', 'POST', { name });
  expect(res.status).toBe(201);
  return res.body;
}

async function multipart(who: Person, kbId: string, key: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), key);
  return h.api(`/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form, token: who.key });
}

async function ready(kbId: string, key: string) {
  await vi.waitFor(
    async () => {
      const a = await as<{ status: string }>(null, `/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(key)}`);
      expect(a.body.status).toBe('ready');
    },
    { timeout: 20_000, interval: 50 },
  );
}

beforeAll(async () => {
  h = await startChatHarness();
  [alice, bob, admin] = [await person(h.api, 'member', 'alice'), await person(h.api, 'member', 'bob'), await person(h.api, 'admin', 'ada')];
  tina = await trial(h.api);
});
afterAll(() => h.close());

describe('another user’s upload is 404 on every route (issue 10, item 3)', () => {
  it('status, signed part URLs and completion stay with the upload’s owner', async () => {
    const ds = await datasetOf(alice, 'Alice uploads');
    const bytes = Buffer.from('Alice wrote this.\n'.repeat(10));
    const created = await as<Upload>(alice, '/uploads', 'POST', { kb_id: ds.kb_id, files: [{ key: 'a.txt', filename: 'a.txt', size: bytes.length }] });
    expect(created.status).toBe(201);
    const id = created.body.upload_id;

    for (const intruder of [bob, tina, admin, null]) {
      const label = intruder ? intruder.id : 'owner of the install';
      // null: the super admin (the harness's owner key) — not the upload's owner either.
      const got = await call<{ code: string; files?: unknown }>(h.api, `/uploads/${id}`, intruder ? { token: intruder.key } : {});
      expect(got.status, label).toBe(404);
      expect(got.body.code, label).toBe('not_found');
      expect(JSON.stringify(got.body), label).not.toContain('signature=');
      const completed = await call(h.api, `/uploads/${id}/complete`, { method: 'POST', body: {}, ...(intruder ? { token: intruder.key } : {}) });
      expect(completed.status, label).toBe(404);
    }

    // Nothing the intruders did touched it: Alice's parts go up and her upload completes.
    const mine = await as<Upload>(alice, `/uploads/${id}`);
    expect(mine.status).toBe(200);
    const url = mine.body.files[0]?.urls[0]?.url ?? '';
    expect(url).toContain('signature=');
    expect((await fetch(url, { method: 'PUT', body: bytes })).status).toBe(200);
    expect((await as<Upload>(alice, `/uploads/${id}/complete`, 'POST', {})).body.status).toBe('completed');
    await ready(ds.kb_id, 'a.txt');
    const content = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts/a.txt/content`, { token: alice.key });
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('an upload id that does not exist and one of another user answer the same', async () => {
    const ds = await datasetOf(alice, 'Alice again');
    const created = await as<Upload>(alice, '/uploads', 'POST', { kb_id: ds.kb_id, files: [{ key: 'b.txt', filename: 'b.txt', size: 5 }] });
    const theirs = await as<{ detail: string }>(bob, `/uploads/${created.body.upload_id}`);
    const none = await as<{ detail: string }>(bob, '/uploads/upl_doesnotexist000');
    expect([theirs.status, none.status]).toEqual([404, 404]);
    expect(theirs.body.detail.replace(created.body.upload_id, 'X')).toBe(none.body.detail.replace('upl_doesnotexist000', 'X'));
  });
});

describe('only a dataset’s owner or an admin writes to it; the organization reads it (issue 10, item 9)', () => {
  it('members and trial users cannot rename, upload into, retry or delete files of another user’s dataset', async () => {
    const ds = await datasetOf(alice, 'Alice notes');
    expect((await multipart(alice, ds.kb_id, 'plan.txt', 'The harvest festival is on the first Saturday of October.')).status).toBe(201);
    await ready(ds.kb_id, 'plan.txt');

    for (const intruder of [bob, tina]) {
      const rename = await as<{ code: string }>(intruder, `/datasets/${ds.id}`, 'PATCH', { name: 'Mine now' });
      expect(rename.status).toBe(403);
      expect(rename.body.code).toBe('forbidden');
      expect((await as(intruder, '/uploads', 'POST', { kb_id: ds.kb_id, files: [{ key: 'x.txt', filename: 'x.txt', size: 3 }] })).status).toBe(403);
      const form = await multipart(intruder, ds.kb_id, 'planted.txt', 'planted');
      expect(form.status).toBe(403);
      expect((await as(intruder, `/knowledge-bases/${ds.kb_id}/artifacts/plan.txt/retry`, 'POST', {})).status).toBe(403);
      expect((await as(intruder, `/knowledge-bases/${ds.kb_id}/artifacts/plan.txt`, 'DELETE')).status).toBe(403);
      expect((await as(intruder, `/datasets/${ds.id}`, 'DELETE')).status).toBe(403);
    }
    const after = await as<{ name: string; artifact_count: number }>(alice, `/datasets/${ds.id}`);
    expect(after.body).toMatchObject({ name: 'Alice notes', artifact_count: 1, can_write: true });
    // Clients learn up front who may write, so they need not offer what will be refused.
    expect((await as(bob, `/datasets/${ds.id}`)).body).toMatchObject({ can_write: false });
    expect((await as(admin, `/datasets/${ds.id}`)).body).toMatchObject({ can_write: true });
    const listed = await as<{ data: { id: string; can_write: boolean }[] }>(tina, '/datasets');
    expect(listed.body.data.find((d) => d.id === ds.id)?.can_write).toBe(false);
    expect((await as(alice, `/knowledge-bases/${ds.kb_id}/artifacts/planted.txt`)).status).toBe(404);

    // Reading is shared: the others list it, open its files, search and chat with it.
    for (const reader of [bob, tina]) {
      expect((await as<{ data: { id: string }[] }>(reader, '/datasets')).body.data.map((d) => d.id)).toContain(ds.id);
      expect((await as(reader, `/knowledge-bases/${ds.kb_id}/artifacts`)).status).toBe(200);
      const answer = await as<{ message: { content: string } }>(reader, '/chat', 'POST', { message: 'When is the harvest festival?', dataset_ids: [ds.id], model_endpoint_override: 'mdl_extractive' });
      expect(answer.body.message.content).toContain('first Saturday of October');
    }
  });

  it('the owner and an admin may write', async () => {
    const ds = await datasetOf(alice, 'Shared work');
    expect((await as(alice, `/datasets/${ds.id}`, 'PATCH', { name: 'Shared work (v2)' })).status).toBe(200);
    expect((await as(admin, `/datasets/${ds.id}`, 'PATCH', { description: 'Tidied by an admin' })).status).toBe(200);
    expect((await multipart(admin, ds.kb_id, 'admin.txt', 'Added by the admin.')).status).toBe(201);
    expect((await as(admin, `/datasets/${ds.id}`, 'DELETE')).status).toBe(204);
  });
});

describe('every thought of an agentic call belongs to each dataset it drew on (issue 10, item 13)', () => {
  it('an answer step that names no dataset goes when the dataset is deleted', async () => {
    const ds = await datasetOf(alice, 'Sparse');
    expect((await multipart(alice, ds.kb_id, 'bees.txt', 'Bees make honey from nectar.')).status).toBe(201);
    await ready(ds.kb_id, 'bees.txt');
    // Nothing relevant is found: the answer step names no dataset.
    const res = await as<{ message: { id: string } }>(alice, '/chat', 'POST', { message: 'zeppelin altitude records', dataset_ids: [ds.id], agentic: true, model_endpoint_override: 'mdl_extractive' });
    expect(res.status).toBe(200);
    const before = (await as<{ data: { kind: string; dataset_id: string | null }[] }>(alice, `/messages/${res.body.message.id}/thoughts`)).body.data;
    expect(before.find((t) => t.kind === 'answer')?.dataset_id).toBeNull();

    expect((await as(alice, `/datasets/${ds.id}`, 'DELETE')).status).toBe(204);
    expect((await as<{ data: unknown[] }>(alice, `/messages/${res.body.message.id}/thoughts`)).body.data).toEqual([]);
    expect(h.core.repos.thoughts.ofMessage(res.body.message.id)).toEqual([]);
  });
});
