/**
 * The local models run in a process of their own: killing it (as a native abort or the kernel's
 * out-of-memory killer would) mid-answer fails that answer with its text so far kept, the app goes
 * on serving, and the next answer on the same model starts a new process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ProcessHost } from '../../../main/core/models/local/host/client.js';
import { LOOP_TEXT, makeGguf } from '../../fixtures/gguf.js';
import { startTestHttp, tempDir, TEST_ADMIN_KEY } from '../../support/core.js';
import { followChat } from '../../support/sse.js';

const data = tempDir('parley-host-process-');
const models = join(data.dir, 'elsewhere');
mkdirSync(models);
const loopPath = join(models, 'loop.gguf');
writeFileSync(loopPath, makeGguf({ name: 'Host Loop', loop: true, contextLength: 2048 }));
writeFileSync(join(data.dir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nsearch_paths = []\n');

let h: Awaited<ReturnType<typeof startTestHttp>> | null = null;
afterAll(async () => {
  await h?.close();
  data.remove();
});

interface StoredMessage {
  id: string;
  content: string;
  status: string;
  error?: { code: string; detail: string };
}

// Starting the model's process from source (tsx) and loading llama.cpp take seconds on a busy machine.
describe('the local models’ own process', { timeout: 120_000 }, () => {
  it('killed mid-answer: the answer fails with its text kept, the app keeps serving, the next answer starts a new process', async () => {
    h = await startTestHttp({ dataDir: data.dir, folderEnv: () => ({ home: data.dir, platform: 'linux' }) });
    const { api } = h;
    const host = h.core.runtime.local.engine;
    expect(host).toBeInstanceOf(ProcessHost);
    const pidOf = () => (host as ProcessHost).pid();

    const added = (await (await api('/models', { method: 'POST', body: JSON.stringify({ provider: 'llama_cpp', model_path: loopPath }) })).json()) as { id: string };
    const res = await api('/chat', { method: 'POST', body: JSON.stringify({ message: 'go', stream: true, model_endpoint_override: added.id }) });
    expect(res.status).toBe(200);

    let killed: number | undefined;
    const { threadId, messageId, events } = await followChat(res, (so) => {
      // The model never ends its turn: once it has written something, its process dies as in a native crash.
      if (killed === undefined && so.text.length >= 5) {
        killed = pidOf();
        expect(killed).toBeGreaterThan(0);
        process.kill(killed!, 'SIGKILL');
      }
    });
    expect(killed).toBeDefined();
    expect(events).toContain('error');

    const list = (await (await api(`/threads/${threadId}/messages`)).json()) as { data: StoredMessage[] };
    const stored = list.data.find((m) => m.id === messageId)!;
    expect(stored.status).toBe('error');
    expect(stored.error?.detail).toMatch(/local model's process stopped/);
    expect(stored.content.length).toBeGreaterThanOrEqual(5);
    expect(LOOP_TEXT.repeat(1000).startsWith(stored.content)).toBe(true);
    // The process died; the app did not, and no longer counts the model as loaded.
    expect((await api('/health')).status).toBe(200);
    expect(host.residents()).toEqual([]);
    expect(host.state(loopPath).state).toBe('unloaded');

    // The next answer on the same model is written by a new process.
    const next = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: added.id, messages: [{ role: 'user', content: 'go' }], max_tokens: 30 }),
    });
    expect(next.status).toBe(200);
    const body = (await next.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe(LOOP_TEXT + LOOP_TEXT.slice(0, 4));
    expect(pidOf()).toBeGreaterThan(0);
    expect(pidOf()).not.toBe(killed);
    await vi.waitFor(() => expect(host.state(loopPath).state).toBe('loaded'));
  });
});
