/**
 * Issue 13, item 2: one shutdown rule. Closing the core stops accepting (new requests: 503
 * `unavailable`, said plainly), waits for the answers being written (each stored as interrupted,
 * its text and usage saved together), and only then closes the database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
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
    const again = bootCore(onTestStorage({ dataDir: h.core.dataDir, appVersion: 't', recover: false, watchConfigFile: false }));
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
