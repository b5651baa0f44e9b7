import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { person, type Person } from '../support/people.js';

/**
 * Files attached in a thread's composer (issue 31, expectation 1): they go to the thread's own
 * dataset, made on the first attach, which only the thread's owner sees, which the thread always
 * draws on, and which goes with the thread, stored bytes included.
 */
type Dataset = { id: string; kb_id: string; thread_id: string | null; can_write: boolean };
type Thread = { id: string; dataset_ids: string[] };
type Citation = { dataset_id: string; artifact_key: string };

let h: Harness;
let other: Person;

beforeAll(async () => {
  h = await startChatHarness();
  other = await person(h.api, 'admin', 'other');
});
afterAll(() => h.close());

/** Uploads one text file into the knowledge base as a form, and waits until it is processed. */
async function attach(kbId: string, key: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/markdown' }), key);
  const res = await h.api(`/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  await h.core.runtime.ingest.idle();
  return (await h.json<{ status: string }>(`/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(key)}`, 'GET')).body.status;
}

describe("a thread's own files", () => {
  it('are one dataset, made on the first call and the same after, among the thread’s datasets and its owner’s alone', async () => {
    const thread = (await h.json<Thread>('/threads', 'POST', {})).body;
    const first = await h.json<Dataset>(`/threads/${thread.id}/files`, 'POST', {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ thread_id: thread.id, can_write: true });
    const again = await h.json<Dataset>(`/threads/${thread.id}/files`, 'POST', {});
    expect(again.body.id).toBe(first.body.id);
    expect((await h.json<Thread>(`/threads/${thread.id}`, 'GET')).body.dataset_ids).toEqual([first.body.id]);

    // Setting the thread's datasets keeps its own files among them.
    const shared = (await h.json<Dataset>('/datasets', 'POST', { name: 'Shared' })).body;
    expect((await h.json<Thread>(`/threads/${thread.id}`, 'PATCH', { dataset_ids: [shared.id] })).body.dataset_ids).toEqual([shared.id, first.body.id]);
    expect((await h.json<Thread>(`/threads/${thread.id}`, 'PATCH', { dataset_ids: [] })).body.dataset_ids).toEqual([first.body.id]);

    // Not on the Datasets page, unless asked for.
    const listed = (await h.json<{ data: Dataset[] }>('/datasets?limit=100', 'GET')).body.data.map((d) => d.id);
    expect(listed).toContain(shared.id);
    expect(listed).not.toContain(first.body.id);
    expect((await h.json<{ data: Dataset[] }>('/datasets?limit=100&include=threads', 'GET')).body.data.map((d) => d.id)).toContain(first.body.id);

    // Someone else, an admin of the same organization included, finds neither the thread's files nor a way to them.
    expect((await h.json(`/threads/${thread.id}/files`, 'POST', {}, other.key)).status).toBe(404);
    expect((await h.json(`/datasets/${first.body.id}`, 'GET', undefined, other.key)).status).toBe(404);
    expect((await h.json(`/knowledge-bases/${first.body.kb_id}/artifacts`, 'GET', undefined, other.key)).status).toBe(404);
    expect((await h.json('/threads', 'POST', { dataset_ids: [first.body.id] }, other.key)).status).toBe(404);
    expect((await h.json<{ data: Dataset[] }>('/datasets?limit=100&include=threads', 'GET', undefined, other.key)).body.data.map((d) => d.id)).not.toContain(first.body.id);
    expect((await h.json('/threads/thr_doesnotexist/files', 'POST', {})).status).toBe(404);
  });

  it('are what the thread’s answers cite, whatever datasets a message names', async () => {
    const thread = (await h.json<Thread>('/threads', 'POST', {})).body;
    const files = (await h.json<Dataset>(`/threads/${thread.id}/files`, 'POST', {})).body;
    expect(await attach(files.kb_id, 'quay-rules.md', '# Quay rules\n\nThe quay gate closes at nine in the evening; the harbour master keeps the only key.\n')).toBe('ready');

    const res = await h.json<{ message: { citations: Citation[] } }>('/chat', 'POST', { thread_id: thread.id, message: 'When does the quay gate close?' });
    expect(res.status).toBe(200);
    expect(res.body.message.citations[0]).toMatchObject({ dataset_id: files.id, artifact_key: 'quay-rules.md' });

    const named = await h.dataset('Unrelated', { 'weather.md': '# Weather\n\nFog rolls in over the bay most mornings in autumn.\n' });
    const both = await h.json<{ message: { citations: Citation[] } }>('/chat', 'POST', { thread_id: thread.id, message: 'Who keeps the key of the quay gate?', dataset_ids: [named.id] });
    expect(both.body.message.citations.map((c) => c.artifact_key)).toContain('quay-rules.md');
  });

  it('go with the thread: the dataset, its chunks and its stored bytes', async () => {
    const thread = (await h.json<Thread>('/threads', 'POST', {})).body;
    const files = (await h.json<Dataset>(`/threads/${thread.id}/files`, 'POST', {})).body;
    expect(await attach(files.kb_id, 'only-here.md', `# Only here\n\nA note found nowhere else: ${Date.now()} cormorants on the breakwater.\n`)).toBe('ready');
    const { sha256 } = h.core.db.prepare('SELECT sha256 FROM artifacts WHERE kb_id = ?').get(files.kb_id) as { sha256: string };
    const chunks = () => (h.core.db.prepare('SELECT count(*) AS n FROM chunks WHERE kb_id = ?').get(files.kb_id) as { n: number }).n;
    expect(chunks()).toBeGreaterThan(0);
    const stored = () => h.core.runtime.blobs.withLocalFile(sha256, async (path) => existsSync(path));
    expect(await stored()).toBe(true);

    expect((await h.json(`/threads/${thread.id}`, 'DELETE')).status).toBe(204);
    expect((await h.json(`/datasets/${files.id}`, 'GET')).status).toBe(404);
    expect(chunks()).toBe(0);
    expect(await stored()).toBe(false);
  });
});
