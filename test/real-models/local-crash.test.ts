/**
 * kill -9 of served mode while the real local model (SmolLM2 135M) is writing: after a restart
 * the answer is `interrupted`, its text as far as it was kept — never lost, never `streaming`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServed, type Served } from '../support/served.js';
import { followChat } from '../support/sse.js';
import { tempDir } from '../support/core.js';
import { realModel } from '../support/real-models.js';

interface StoredMessage {
  id: string;
  content: string;
  status: string;
}

const data = tempDir('parley-real-crash-');
let served: Served | null = null;

afterAll(async () => {
  await served?.stop();
  data.remove();
});

describe('a real local model killed mid-answer', () => {
  it('keeps the partial answer as interrupted after a restart', async () => {
    writeFileSync(join(data.dir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\n');
    served = await startServed({ dataDir: data.dir });
    const first = served;
    const added = (await (await first.api('/models', { body: { provider: 'llama_cpp', model_path: realModel('chat').path } })).json()) as { id: string };
    const res = await first.api('/chat', { body: { message: 'Write a very long story about a lighthouse keeper, in many paragraphs.', stream: true, model_endpoint_override: added.id, temperature: 0 } });
    expect(res.status).toBe(200);

    let threadId = '';
    let messageId = '';
    const stored = async () => {
      const list = (await (await first.api(`/threads/${threadId}/messages`)).json()) as { data: StoredMessage[] };
      return list.data.find((m) => m.id === messageId);
    };
    // Once some of the answer is on disk, the process dies as in a crash.
    const { text: streamed } = await followChat(res, async (so) => {
      ({ threadId, messageId } = so);
      return so.text.length >= 40 && ((await stored())?.content.length ?? 0) > 0;
    });
    expect((await stored())?.status).toBe('streaming');
    await first.kill('SIGKILL');

    // The owner's key from the first start still holds (a key given on a data directory with an owner is ignored).
    served = await startServed({ dataDir: data.dir, adminApiKey: first.apiKey });
    const again = served;
    const after = await vi.waitFor(async () => {
      const list = (await (await again.api(`/threads/${threadId}/messages`)).json()) as { data: StoredMessage[] };
      const message = list.data.find((m) => m.id === messageId);
      expect(message).toBeDefined();
      return message!;
    });
    expect(after.status).toBe('interrupted');
    expect(after.content.length).toBeGreaterThan(0);
    // What was kept is what streamed (the stream may have run a little ahead of the last flush, or the flush ahead of what this client read).
    const shorter = Math.min(after.content.length, streamed.length);
    expect(after.content.slice(0, shorter)).toBe(streamed.slice(0, shorter));
  });
});
