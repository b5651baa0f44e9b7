/**
 * Cancelling a large file's processing: it stops where it stands (no chunk is written after the
 * cancel, however much of the file the parser had still to send), the chunks written before go, the
 * file ends `failed` with the code `cancelled`, and Retry processes it again to the end. Caught
 * part-way by order of events (chunks of it are indexed, it is not ready yet), not by time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestHttp } from '../support/core.js';
import { call, person } from '../support/people.js';

type Artifact = { id: string; key: string; status: string; chunk_count: number; error: { code: string; detail: string } | null };

let h: Awaited<ReturnType<typeof startTestHttp>>;

beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(() => h.close());

/** Some megabytes of distinct paragraphs: long enough to index that a cancel lands part-way. */
function largeMarkdown(paragraphs: number): string {
  const parts = ['# Harbour ledger\n'];
  for (let i = 0; i < paragraphs; i++) parts.push(`Entry ${i}: the dredger worked berth ${i % 97} of the north channel while tide ${i % 13} turned and the crane lifted crate ${i}.\n`);
  return parts.join('\n');
}

describe('cancelling a file being processed', () => {
  it('stops it part-way, leaves no chunk, marks it cancelled; only its owner may; retry processes it again', async () => {
    const ds = (await call<{ id: string; kb_id: string }>(h.api, '/datasets', { body: { name: 'Ledger' } })).body;
    const form = new FormData();
    form.append('file', new Blob([largeMarkdown(50_000)], { type: 'text/markdown' }), 'ledger.md');
    const added = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form });
    expect(added.status).toBe(201);
    const artifact = (await call<Artifact>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md`)).body;
    const chunks = () => (h.core.db.prepare('SELECT count(*) AS n FROM chunks WHERE artifact_id = ?').get(artifact.id) as { n: number }).n;
    // Part-way: some of its chunks are indexed, and it is still processing.
    await vi.waitFor(() => expect(chunks()).toBeGreaterThan(0), { timeout: 60_000, interval: 5 });

    // Someone who may only read the dataset cannot stop it.
    const member = await person(h.api, 'member');
    const refused = await call<{ code: string }>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md/cancel`, { method: 'POST', body: {}, token: member.key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');

    const cancelled = await call<Artifact>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md/cancel`, { method: 'POST', body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('failed');
    expect(cancelled.body.error?.code).toBe('cancelled');
    expect(chunks()).toBe(0);

    // Once the queue has settled, nothing of it came back: no late batch, no late `ready`.
    await h.core.runtime.ingest.idle();
    const after = (await call<Artifact>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md`)).body;
    expect(after.status).toBe('failed');
    expect(after.error?.code).toBe('cancelled');
    expect(chunks()).toBe(0);

    // Cancelling what is not being processed is refused, clearly.
    const again = await call<{ code: string }>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md/cancel`, { method: 'POST', body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');

    const retried = await call<Artifact>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md/retry`, { method: 'POST', body: {} });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('processing');
    await h.core.runtime.ingest.idle();
    const ready = (await call<Artifact>(h.api, `/knowledge-bases/${ds.kb_id}/artifacts/ledger.md`)).body;
    expect(ready.status).toBe('ready');
    expect(ready.chunk_count).toBeGreaterThan(0);
    expect(chunks()).toBe(ready.chunk_count);
  });
});
