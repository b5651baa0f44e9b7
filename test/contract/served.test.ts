import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { startUpstream } from '../fixtures/upstream.js';
import { SERVE_ENTRY, randomApiKey, startServed } from '../support/served.js';
import { readSse } from '../support/sse.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-served-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const serve = async (opts: Parameters<typeof startServed>[0]) => {
  const served = await startServed(opts);
  cleanups.push(() => served.stop());
  return served;
};

describe('served mode (npm run serve)', () => {
  it('prints its address once ready, seeds the owner from PARLEY_ADMIN_API_KEY, and exits 0 on SIGTERM', async () => {
    const served = await startServed();
    const me = (await (await served.api('/me')).json()) as { user: { role: string } };
    expect(me.user.role).toBe('super_admin');
    expect(served.output()).toMatch(/^Parley listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(await served.stop()).toEqual({ code: 0, signal: null });
  });

  it('after a crash mid-answer, the next start keeps the text so far and marks it interrupted', async () => {
    const upstream = await startUpstream();
    cleanups.push(() => upstream.close());
    const dir = dataDir();
    const key = randomApiKey();
    const first = await startServed({ dataDir: dir, adminApiKey: key });
    const model = (await (await first.api('/models', { body: { name: 'Slow', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:200' } })).json()) as { id: string };
    const res = await fetch(`${first.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'crash', stream: true, model_endpoint_override: model.id }),
    });
    let ids: { thread_id: string; message_id: string } | undefined;
    let streamed = '';
    for await (const e of readSse(res)) {
      if (e.event === 'message.created') ids = JSON.parse(e.data);
      if (e.event === 'delta') streamed += (JSON.parse(e.data) as { content: string }).content;
      if (streamed.split(' ').length >= 3) break;
    }
    // Once a periodic flush has stored what was streamed so far, crash: no chance to save anything more.
    const flushed = streamed;
    await vi.waitFor(
      async () => {
        const { data } = (await (await first.api(`/threads/${ids?.thread_id}/messages`)).json()) as { data: Array<{ id: string; content: string }> };
        expect(data.find((m) => m.id === ids?.message_id)?.content.startsWith(flushed.trimEnd())).toBe(true);
      },
      { timeout: 10_000, interval: 25 },
    );
    const killed = await first.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');

    const second = await serve({ dataDir: dir, adminApiKey: key });
    expect(second.output()).toMatch(/interrupted/);
    const { data } = (await (await second.api(`/threads/${ids?.thread_id}/messages`)).json()) as { data: Array<{ id: string; status: string; content: string }> };
    const answer = data.find((m) => m.id === ids?.message_id);
    expect(answer?.status).toBe('interrupted');
    expect(answer?.content.startsWith(flushed.trimEnd())).toBe(true);
  });

  it('reports an invalid config file with line and column, and starts on the last good version', async () => {
    const dir = dataDir();
    const key = randomApiKey();
    await (await startServed({ dataDir: dir, adminApiKey: key })).stop();
    writeFileSync(join(dir, 'parley.toml'), CONFIG_TEMPLATE.replace('carousel = "horizontal"', 'carousel = "diagonal"'));
    const served = await serve({ dataDir: dir, adminApiKey: key });
    const line = CONFIG_TEMPLATE.split('\n').findIndex((l) => l.startsWith('carousel')) + 1;
    expect(served.output()).toContain(`parley.toml:${line}:1: ui.carousel:`);
    expect((await served.api('/health')).status).toBe(200);
  });

  it('refuses, with a clear message and without touching it, a database from a newer Parley', async () => {
    const dir = dataDir();
    await (await startServed({ dataDir: dir })).stop();
    const db = new Database(join(dir, 'parley.db'));
    db.pragma('user_version = 9990');
    db.close();
    const run = spawnSync(process.execPath, [SERVE_ENTRY, '--port', '0', '--data-dir', dir], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/newer version of Parley/);
    const after = new Database(join(dir, 'parley.db'), { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(9990);
    after.close();
  });

  it('explains bad flags and a malformed admin key instead of starting', () => {
    const badPort = spawnSync(process.execPath, [SERVE_ENTRY, '--port', 'eighty'], { encoding: 'utf8', timeout: 20_000 });
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toMatch(/Invalid port/);
    const badKey = spawnSync(process.execPath, [SERVE_ENTRY, '--port', '0', '--data-dir', dataDir()], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, PARLEY_ADMIN_API_KEY: 'secret' } });
    expect(badKey.status).toBe(2);
    expect(badKey.stderr).toMatch(/PARLEY_ADMIN_API_KEY must look like pk_/);
  });
});
