/**
 * The desktop's local models' process, started through Electron's utilityProcess API. Electron is
 * not here, so a stand-in gives the same API over a Node child process whose `process.parentPort`
 * behaves as a utility process's does (messages wrapped in `{ data }`): the host speaks through
 * it, an answer streams, and a kill mid-answer fails that answer and the next one starts anew.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../shared/config.js';
import { readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { ProcessHost } from '../../../main/core/models/local/host/client.js';
import type { GenerateRequest } from '../../../main/core/models/local/host/types.js';
import { utilityProcessHost, type UtilityProcessLike } from '../../../main/desktop/model-host.js';
import { ProviderError } from '../../../main/core/platform/ports/providers.js';
import { CHAT_ANSWER, LOOP_TEXT, makeGguf } from '../../fixtures/gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-utility-host-'));
const chatPath = join(dir, 'chat.gguf');
writeFileSync(chatPath, makeGguf({ name: 'Utility Chat', contextLength: 1024 }));
const loopPath = join(dir, 'loop.gguf');
writeFileSync(loopPath, makeGguf({ name: 'Utility Loop', contextLength: 1024, loop: true }));
// What Electron gives a utility process: process.parentPort, its messages as `{ data }`.
const shim = join(dir, 'utility-shim.mjs');
writeFileSync(
  shim,
  `process.parentPort = { on: (event, listener) => process.on('message', (data) => listener({ data })), postMessage: (message) => process.send(message) };
process.on('disconnect', () => process.exit(0));
await import(new URL(process.argv[2], 'file://').href);
`,
);

/** Electron's utilityProcess.fork, as far as the host uses it, over child_process.fork. */
const utilityProcess: UtilityProcessLike = {
  fork(modulePath) {
    const child = fork(shim, [modulePath], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    return {
      get pid() {
        return child.pid;
      },
      postMessage: (message) => child.send(message as object),
      on: (_event, listener) => child.on('message', listener),
      once: (_event, listener) => child.once('exit', (code) => listener(code ?? -1)),
      kill: () => child.kill('SIGKILL'),
    };
  },
};

const config = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, idle_unload_seconds: 0 } });
const host = new ProcessHost({ config: () => config, spawn: utilityProcessHost(utilityProcess), script: fileURLToPath(new URL('../../../main/core/models/local/host/host-process-dev.mjs', import.meta.url)) });

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

async function request(path: string, maxTokens?: number): Promise<GenerateRequest> {
  return { path, header: await readGgufHeader(path), history: [{ type: 'user', text: 'hi' }, { type: 'model', response: [] }], tools: { kind: 'none' }, agent: false, max_tokens: maxTokens };
}

const text = (events: { type: string; text?: string }[]) => events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

describe('the local models in an Electron utility process', { timeout: 120_000 }, () => {
  it('streams an answer, fails the one being written when the process is killed, and starts a new process for the next', async () => {
    const events = [];
    for await (const e of host.generate(await request(chatPath), new AbortController().signal)) events.push(e);
    expect(text(events)).toBe(CHAT_ANSWER);
    expect(host.state(chatPath).state).toBe('loaded');
    const first = host.pid();

    let written = '';
    const killed = (async () => {
      for await (const e of host.generate(await request(loopPath), new AbortController().signal)) {
        if (e.type !== 'delta') continue;
        written += e.text;
        if (written.length >= 5 && host.pid() === first) process.kill(first!, 'SIGKILL');
      }
    })();
    await expect(killed).rejects.toSatisfy((e) => e instanceof ProviderError && e.code === 'upstream_error' && /process stopped/.test(e.message));
    expect(LOOP_TEXT.repeat(100).startsWith(written)).toBe(true);
    expect(host.residents()).toEqual([]);
    expect(host.state(chatPath).state).toBe('unloaded');

    const again = [];
    for await (const e of host.generate(await request(loopPath, 30), new AbortController().signal)) again.push(e);
    expect(text(again)).toBe(LOOP_TEXT + LOOP_TEXT.slice(0, 4));
    expect(host.pid()).not.toBe(first);
  });
});
