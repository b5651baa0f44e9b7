/**
 * Ingestion never freezes the API: while many small files, or one large one, are being processed,
 * a dataset read and a chat answer come back. Asserted by order of events (the request completes
 * while the queue still holds files, or while the large file is still being indexed), never by
 * wall-clock time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

let h: Harness;

beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

/** The most one upload session takes: every file is queued at once when it completes. */
const FILES = 1_000;

function note(i: number): string {
  return `# Note ${i}\n\nLedger entry ${i}: the harbour dredger worked the north channel on day ${i % 365}.\n`;
}

type Upload = { upload_id: string; files: Array<{ key: string; urls: Array<{ url: string }> }> };

/**
 * One upload session of single-part files through signed URLs; answers the completion request,
 * not awaited: completing assembles each file and queues it, so files are processed meanwhile.
 */
async function uploadSession(kbId: string, files: Array<[string, string]>): Promise<Promise<Response>> {
  const created = await h.json<Upload>('/uploads', 'POST', { kb_id: kbId, files: files.map(([key, text]) => ({ key, filename: key, size: Buffer.byteLength(text), mime_type: 'text/markdown' })) });
  expect(created.status).toBe(201);
  const texts = new Map(files);
  const parts = created.body.files.map((f) => ({ url: f.urls[0]?.url ?? '', body: texts.get(f.key) ?? '' }));
  for (let start = 0; start < parts.length; start += 20) {
    await Promise.all(
      parts.slice(start, start + 20).map(async ({ url, body }) => {
        const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } });
        expect(res.status).toBe(200);
      }),
    );
  }
  return h.api(`/uploads/${created.body.upload_id}/complete`, { method: 'POST', body: '{}' });
}

async function upload(kbId: string, files: Array<[string, string]>): Promise<void> {
  const form = new FormData();
  for (const [key, text] of files) form.append('file', new Blob([text], { type: 'text/markdown' }), key);
  const res = await h.api(`/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
}

describe('the API stays responsive while files are processed', () => {
  it(`${FILES} small files: the dataset and a chat answer come back before the queue is done, and every file ends ready`, async () => {
    const ds = (await h.json<{ id: string; kb_id: string }>('/datasets', 'POST', { name: 'Ledger' })).body;
    const completing = await uploadSession(ds.kb_id, Array.from({ length: FILES }, (_, i) => [`note-${i}.md`, note(i)] as [string, string]));
    const queue = h.core.runtime.ingest;
    // Files not ready yet (queued, being assembled or processed), read from the database.
    const unfinished = () => (h.core.db.prepare("SELECT count(*) AS n FROM artifacts WHERE kb_id = ? AND status != 'ready'").get(ds.kb_id) as { n: number }).n;
    // Processing is under way: the first file is ready while the completion still queues the rest.
    // (Waiting for the whole completion would race the queue: it processes files as they are queued.)
    await vi.waitFor(() => expect(unfinished()).toBeLessThan(FILES), { timeout: 120_000, interval: 5 });

    const read = await h.json<{ id: string }>(`/datasets/${ds.id}`, 'GET');
    const busyAfterRead = unfinished();
    const chat = await h.json<{ message: { status: string } }>('/chat', 'POST', { message: 'Which channel did the dredger work?', dataset_ids: [ds.id], model_endpoint_override: 'mdl_extractive' });
    const busyAfterChat = unfinished();

    expect(read.status).toBe(200);
    expect(read.body.id).toBe(ds.id);
    expect(chat.status).toBe(200);
    expect(chat.body.message.status).toBe('complete');
    // Both answered while files were still waiting or being processed.
    expect(busyAfterRead).toBeGreaterThan(0);
    expect(busyAfterChat).toBeGreaterThan(0);

    const completed = await completing;
    expect(completed.status).toBe(200);
    // Read to the end, so that its connection is free when the server closes.
    expect(((await completed.json()) as { status: string }).status).toBe('completed');
    await queue.idle();
    const statuses = h.core.db.prepare('SELECT status, count(*) AS n FROM artifacts WHERE kb_id = ? GROUP BY status').all(ds.kb_id);
    expect(statuses).toEqual([{ status: 'ready', n: FILES }]);
    expect(h.core.repos.chunks.kbRanges([ds.kb_id])[0]?.inserted).toBe(FILES);
  }, 300_000);

  it('a large file is indexed batch by batch: a request made while it is indexed is answered before it is ready', async () => {
    const ds = (await h.json<{ id: string; kb_id: string }>('/datasets', 'POST', { name: 'Large' })).body;
    const paragraph = 'The keeper trims the wick, winds the clockwork and logs the tide before dusk. '.repeat(12);
    const text = Array.from({ length: 8_000 }, (_, i) => `${i}. ${paragraph}`).join('\n\n');
    await upload(ds.kb_id, [['large.txt', text]]);
    const artifact = () => h.core.repos.artifacts.getByKey(ds.kb_id, 'large.txt');
    // Indexing has begun: chunks are arriving and being written (progress past the parse).
    await vi.waitFor(() => expect(artifact()?.progress ?? 0).toBeGreaterThan(0.6), { timeout: 120_000, interval: 5 });
    const read = await h.json<{ id: string }>(`/datasets/${ds.id}`, 'GET');
    const statusWhenAnswered = artifact()?.status;
    expect(read.status).toBe(200);
    expect(statusWhenAnswered).toBe('processing');
    await h.core.runtime.ingest.idle();
    expect(artifact()).toMatchObject({ status: 'ready', progress: 1 });
    expect(artifact()?.chunk_count).toBe(h.core.repos.chunks.kbRanges([ds.kb_id])[0]?.inserted);
  }, 300_000);
});
