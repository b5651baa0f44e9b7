/**
 * Issue 13, item 2: one shutdown rule. Closing the core stops accepting (new requests: 503
 * `unavailable`, said plainly), waits for the answers being written (each stored as interrupted,
 * its text and usage saved together), and only then closes the database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { readSse } from '../support/sse.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('shutdown', () => {
  it('an answer running at shutdown is saved (interrupted, its text and usage) before the database closes; new requests are refused', async () => {
    h = await startChatHarness();
    const slow = await h.addModel('Slow', 'slow:100');
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'Count slowly', stream: true, model_endpoint_override: slow }) });
    let messageId = '';
    let streamed = '';
    let deltas = 0;
    for await (const e of readSse(res)) {
      if (e.event === 'message.created') messageId = (JSON.parse(e.data) as { message_id: string }).message_id;
      if (e.event === 'delta') streamed += (JSON.parse(e.data) as { content: string }).content;
      if (e.event === 'delta' && ++deltas === 2) break;
    }
    expect(h.core.runtime.hub.isRunning(messageId)).toBe(true);
    const owner = h.core.desktopCaller();

    const closing = h.core.close();
    // From the first moment of shutdown, while the answer is still being written, new work is refused.
    expect(h.core.runtime.hub.isRunning(messageId)).toBe(true);
    await expect(h.core.service.invoke('threads.list', { limit: 5 }, owner)).rejects.toMatchObject({ code: 'unavailable' });
    // Over HTTP too, with a clear error, not a 500 — also once the database has closed.
    const refused = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'Too late', model_endpoint_override: slow }) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/shutting down/) });
    await closing;
    expect(h.core.db.open).toBe(false);

    // Opened again without start-up recovery: what is there was stored by the shutdown itself.
    const again = bootCore({ dataDir: h.core.dataDir, appVersion: 't', recover: false, watchConfigFile: false });
    try {
      const row = again.repos.messages.get(messageId);
      expect(row).toMatchObject({ status: 'interrupted', error_code: 'unavailable' });
      expect(row?.content.startsWith(streamed)).toBe(true);
      expect(streamed.length).toBeGreaterThan(0);
      const usage = again.repos.usage.listByUser(again.owner.userId).filter((u) => u.message_id === messageId);
      expect(usage).toHaveLength(1);
      expect(usage[0]?.output_tokens).toBe(row?.output_tokens);
    } finally {
      await again.close();
    }
  });

  it('with nothing running it closes at once, and closing twice is one close', async () => {
    h = await startChatHarness();
    const first = h.core.close();
    const second = h.core.close();
    expect(second).toBe(first);
    await first;
    expect(h.core.db.open).toBe(false);
  });
});

describe('a full database', () => {
  it('a write SQLite refuses as full answers 507 insufficient_storage, and nothing is half-written', async () => {
    h = await startChatHarness();
    // SQLite's own limit: no page may be added, so a write that needs one fails with SQLITE_FULL.
    const pages = h.core.db.pragma('page_count', { simple: true }) as number;
    h.core.db.pragma(`max_page_count = ${pages}`);
    const created: string[] = [];
    let full: Response | undefined;
    // Rows fit in the free space of existing pages for a while: write until one needs a new page.
    for (let i = 0; i < 500 && !full; i++) {
      const res = await h.api('/threads', { method: 'POST', body: JSON.stringify({ title: `Thread ${i} ${'words '.repeat(150)}`.slice(0, 190), system_prompt: 'p'.repeat(3000) }) });
      if (res.status === 201) created.push(((await res.json()) as { id: string }).id);
      else full = res;
    }
    expect(full?.status).toBe(507);
    expect(await full?.json()).toMatchObject({ code: 'insufficient_storage', status: 507, detail: expect.stringMatching(/disk .* is full/) });
    h.core.db.pragma(`max_page_count = ${2 ** 30}`);
    // Every thread that was answered 201 is there, and nothing of the refused one.
    const listed = (await h.json<{ data: Array<{ id: string }> }>('/threads?limit=100', 'GET')).body.data.map((t) => t.id);
    expect(listed.sort()).toEqual([...created].sort());
  });
});
