import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processArtifact } from '../../main/core/knowledge/ingest/queue.js';
import { silentLogger } from '../../main/core/platform/logger.js';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';

type Result = { artifact_key: string };
type Citation = { artifact_key: string };

let h: Harness;
let village: { id: string; kb_id: string };

beforeAll(async () => {
  h = await startChatHarness();
  village = await h.dataset('Village', VILLAGE_DOCS);
});
afterAll(() => h.close());

const FERRY = 'The ferry to the lighthouse island leaves at dawn; its lamp is lit by the ferryman before the crossing.\n';

/** What POST /search and the built-in model's citations find for a question, by file. */
async function found(question: string) {
  const search = await h.json<{ data: Result[] }>('/search', 'POST', { query: question, dataset_ids: [village.id], limit: 20 });
  const chat = await h.json<{ message: { citations: Citation[] } }>('/chat', 'POST', { message: question, dataset_ids: [village.id], model_endpoint_override: 'mdl_extractive' });
  return { search: new Set(search.body.data.map((r) => r.artifact_key)), cited: new Set(chat.body.message.citations.map((c) => c.artifact_key)) };
}

describe('search and chat see only files that are ready', () => {
  it('a file whose chunks are indexed but that is not ready (processing, then failed) is neither found nor cited; once ready it is', async () => {
    const { core } = h;
    const now = () => new Date().toISOString();
    // The real ingestion of a stored file, stopped after its chunks are indexed and before it is
    // marked ready: what a shutdown in the middle of a file leaves until the next start.
    const stored = await core.runtime.blobs.put(Readable.from([Buffer.from(FERRY)]), 1 << 20);
    const id = 'art_ferry_mid_ingestion';
    core.repos.artifacts.insert({ id, kb_id: village.kb_id, key: 'ferry.txt', filename: 'ferry.txt', declared_mime_type: 'text/plain', size: stored.size, part_size: 0, upload_id: null, user_id: null, status: 'processing', now: now() });
    core.repos.artifacts.setStored(id, stored.sha256, null, now());
    const deps = { repos: core.repos, blobs: core.runtime.blobs, config: core.config, embedding: () => undefined, log: silentLogger };
    let asked = 0;
    // Asked once after the head is read, once after the chunks are written: shutdown begins in between.
    await processArtifact(deps, id, () => ++asked > 1);
    expect(core.repos.artifacts.get(id)?.status).toBe('processing');
    expect((core.db.prepare('SELECT count(*) AS n FROM chunks WHERE artifact_id = ?').get(id) as { n: number }).n).toBeGreaterThan(0);

    const question = 'When does the ferry leave, and who lights its lamp?';
    const mid = await found(question);
    expect(mid.search.has('ferry.txt')).toBe(false);
    expect(mid.cited.has('ferry.txt')).toBe(false);
    // The ready files are still found meanwhile.
    expect(mid.search.has('lighthouse.md')).toBe(true);

    // Failed with its chunks still there (a failure that left them): not found either.
    core.repos.artifacts.setStatus(id, 'failed', now(), { code: 'parse_error', detail: 'test' });
    const failed = await found(question);
    expect(failed.search.has('ferry.txt')).toBe(false);
    expect(failed.cited.has('ferry.txt')).toBe(false);

    // Retried through the API and processed to the end: found and cited.
    const retry = await h.json<{ status: string }>(`/knowledge-bases/${village.kb_id}/artifacts/ferry.txt/retry`, 'POST');
    expect(retry.status).toBe(200);
    await core.runtime.ingest.idle();
    expect(core.repos.artifacts.get(id)?.status).toBe('ready');
    const ready = await found(question);
    expect(ready.search.has('ferry.txt')).toBe(true);
    expect(ready.cited.has('ferry.txt')).toBe(true);
  });
});
