import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../../shared/config.js';
import { defaultThreads, LocalEngine, type IdleTimers } from '../../../main/core/local-models/engine.js';
import { readGgufHeader } from '../../../main/core/local-models/gguf-header.js';
import { LocalModels } from '../../../main/core/local-models/registry.js';
import { llamaCppProvider } from '../../../main/core/providers/llama-cpp.js';
import { ProviderError } from '../../../main/core/providers/types.js';
import { ABC_COMPLETION, CHAT_ANSWER, makeGguf } from '../../fixtures/gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-engine-'));
const chatPath = join(dir, 'chat.gguf');
writeFileSync(chatPath, makeGguf({ name: 'Unit Chat', contextLength: 1024 }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (localModels: Record<string, unknown> = {}): (() => Config) => {
  const parsed = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, ...localModels } });
  return () => parsed;
};

/** Timers the test fires by hand: no waiting on the clock. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  const timers: IdleTimers = {
    set: (fn, ms) => {
      pending.set(++next, { fn, ms });
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    const due = [...pending.entries()];
    pending.clear();
    for (const [, t] of due) t.fn();
    return due.map(([, t]) => t.ms);
  };
  return { timers, pending, fire };
}

// Loading llama.cpp and a model takes a second or two, more on a busy machine.
describe('LocalEngine', { timeout: 60_000 }, () => {
  it('picks few threads on small machines (llama.cpp’s own default is far slower there)', () => {
    expect(defaultThreads(2)).toBe(1);
    expect(defaultThreads(8)).toBe(4);
    expect(defaultThreads(64)).toBe(8);
  });

  it('loads on first use, then unloads after idle_unload_seconds of no use — never while answering', async () => {
    const { timers, pending, fire } = manualTimers();
    const engine = new LocalEngine({ config: config({ idle_unload_seconds: 120 }), timers });
    const header = await readGgufHeader(chatPath);
    expect(engine.state(chatPath).state).toBe('unloaded');

    const slot = await engine.acquire(chatPath, header, new AbortController().signal);
    expect(engine.state(chatPath).state).toBe('loaded');
    // In use: no unload is scheduled.
    expect(pending.size).toBe(0);
    slot.release();
    expect([...pending.values()].map((t) => t.ms)).toEqual([120_000]);

    // Used again before the timer fires: the countdown starts over after this use.
    const again = await engine.acquire(chatPath, header, new AbortController().signal);
    expect(pending.size).toBe(0);
    again.release();
    expect(pending.size).toBe(1);

    fire();
    await expect.poll(() => engine.state(chatPath).state).toBe('unloaded');
    // It loads again when needed.
    const third = await engine.acquire(chatPath, header, new AbortController().signal);
    expect(engine.state(chatPath).state).toBe('loaded');
    third.release();
    await engine.close();
  });

  it('idle_unload_seconds = 0 keeps a model loaded', async () => {
    const { timers, pending } = manualTimers();
    const engine = new LocalEngine({ config: config({ idle_unload_seconds: 0 }), timers });
    const header = await readGgufHeader(chatPath);
    (await engine.acquire(chatPath, header, new AbortController().signal)).release();
    expect(pending.size).toBe(0);
    expect(engine.state(chatPath).state).toBe('loaded');
    await engine.close();
  });

  it('serves `parallel` answers at once from one loaded model; the next waits for a free sequence', async () => {
    const engine = new LocalEngine({ config: config({ parallel: 2, idle_unload_seconds: 0 }) });
    const header = await readGgufHeader(chatPath);
    const signal = new AbortController().signal;
    const a = await engine.acquire(chatPath, header, signal);
    const b = await engine.acquire(chatPath, header, signal);
    let third = false;
    const c = engine.acquire(chatPath, header, signal).then((slot) => {
      third = true;
      return slot;
    });
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    a.release();
    (await c).release();
    expect(third).toBe(true);
    b.release();
    await engine.close();
  });

  it('completes `abc` greedily with the generated model (the fixture is what the tests rely on)', async () => {
    const engine = new LocalEngine({ config: config({ idle_unload_seconds: 0 }) });
    const { lib } = await engine.probe();
    const slot = await engine.acquire(chatPath, await readGgufHeader(chatPath), new AbortController().signal);
    const completion = new lib.LlamaCompletion({ contextSequence: slot.sequence });
    expect(await completion.generateCompletion('abc', { maxTokens: 40 })).toBe(ABC_COMPLETION);
    slot.release();
    await engine.close();
  });

  it('without a working node-llama-cpp, local models are unavailable with the reason — nothing throws out of the provider', async () => {
    const engine = new LocalEngine({
      config: config(),
      importLibrary: () => Promise.reject(new Error('Cannot find module node-llama-cpp')),
    });
    const local = new LocalModels({ dataDir: dir, config: config({ search_paths: [] }), engine, registeredPaths: () => [], env: () => ({ home: dir, platform: 'linux' }) });
    // chat.gguf lies in `dir`, not in <dir>/models: add it by path.
    await local.add(chatPath);
    await expect(engine.probe()).rejects.toThrow(/could not be loaded/);
    expect(engine.state(chatPath)).toEqual({ state: 'failed', error: expect.stringMatching(/node-llama-cpp .*Cannot find module/) });
    const provider = llamaCppProvider(local);
    const run = async () => {
      for await (const event of provider.stream({ model: 'chat.gguf', endpoint_url: chatPath, api_key: null, messages: [{ role: 'user', content: 'hi' }], passages: [], has_datasets: false, signal: new AbortController().signal })) void event;
    };
    await expect(run()).rejects.toSatisfy((e) => e instanceof ProviderError && e.code === 'unavailable' && /node-llama-cpp/.test(e.message));
  });

  it('streams a chat answer through the provider with usage', async () => {
    const engine = new LocalEngine({ config: config({ idle_unload_seconds: 0 }) });
    const local = new LocalModels({ dataDir: dir, config: config({ search_paths: [] }), engine, registeredPaths: () => [], env: () => ({ home: dir, platform: 'linux' }) });
    await local.add(chatPath);
    const events = [];
    for await (const e of llamaCppProvider(local).stream({ model: 'chat.gguf', endpoint_url: chatPath, api_key: null, messages: [{ role: 'user', content: 'hi' }], passages: [], has_datasets: false, signal: new AbortController().signal })) events.push(e);
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : '')).join('')).toBe(CHAT_ANSWER);
    expect(events.at(-1)).toMatchObject({ type: 'usage', output_tokens: CHAT_ANSWER.length + 1 });
    await engine.close();
  });
});
