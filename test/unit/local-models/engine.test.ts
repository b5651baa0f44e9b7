import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../../shared/config.js';
import { defaultThreads, LocalEngine, type IdleTimers } from '../../../main/core/models/local/engine.js';
import { readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { LocalModels } from '../../../main/core/models/local/registry.js';
import { localFits, memoryNeeded } from '../../../main/core/models/local/residency.js';
import { route } from '../../../main/core/models/routing/router.js';
import { Capabilities } from '../../../shared/operations/models-schema.js';
import { llamaCppProvider } from '../../../main/core/models/providers/llama-cpp.js';
import { ProviderError } from '../../../main/core/platform/ports/providers.js';
import { ABC_COMPLETION, CHAT_ANSWER, makeGguf } from '../../fixtures/gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-engine-'));
const chatPath = join(dir, 'chat.gguf');
writeFileSync(chatPath, makeGguf({ name: 'Unit Chat', contextLength: 1024 }));
const loopPath = join(dir, 'loop.gguf');
writeFileSync(loopPath, makeGguf({ name: 'Unit Loop', contextLength: 1024, loop: true }));
const otherPath = join(dir, 'other.gguf');
writeFileSync(otherPath, makeGguf({ name: 'Unit Other', contextLength: 1024 }));
const embedPath = join(dir, 'embed.gguf');
writeFileSync(embedPath, makeGguf({ kind: 'embedding', name: 'Unit Embed', contextLength: 1024 }));
const projectorPath = join(dir, 'mmproj.gguf');
writeFileSync(projectorPath, makeGguf({ architecture: 'clip', name: 'Unit Projector' }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (localModels: Record<string, unknown> = {}): (() => Config) => {
  const parsed = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, ...localModels } });
  return () => parsed;
};

type Lib = typeof import('node-llama-cpp');
let runtime: Promise<Lib> | undefined;
/**
 * node-llama-cpp with one llama.cpp runtime for every engine of this file: starting one takes ~0.5 s
 * (more on a busy machine) and each test made its own. Each engine still loads, shares out and
 * unloads its own models, which is what these tests check.
 */
const sharedLibrary = (): Promise<Lib> =>
  (runtime ??= import('node-llama-cpp').then((lib) => {
    let llama: ReturnType<Lib['getLlama']> | undefined;
    const getLlama = ((options: Parameters<Lib['getLlama']>[0]) => (llama ??= lib.getLlama(options))) as Lib['getLlama'];
    return { ...lib, getLlama };
  }));

const localCaps = Capabilities.parse({ strengths: ['general'], context_tokens: 1024, quality: 3, local: true });
const PLAIN = { prompt_tokens: 10, has_code: false, has_math: false, dataset_count: 0, agentic: false };
const HEALTHY = { latency_ewma_ms: null, error_rate: 0, circuit: 'closed' as const };
const ROUTING = ConfigSchema.parse({}).routing;

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
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ idle_unload_seconds: 120 }), timers });
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
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ idle_unload_seconds: 0 }), timers });
    const header = await readGgufHeader(chatPath);
    (await engine.acquire(chatPath, header, new AbortController().signal)).release();
    expect(pending.size).toBe(0);
    expect(engine.state(chatPath).state).toBe('loaded');
    await engine.close();
  });

  it('serves `parallel` answers at once from one loaded model; the next waits for a free sequence', async () => {
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ parallel: 2, idle_unload_seconds: 0 }) });
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

  it('a cancelled answer leaves the queue: with two queued answers cancelled (one writing, one waiting), the third is written', async () => {
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ parallel: 1, idle_unload_seconds: 0 }) });
    const { lib } = await engine.probe();
    const header = await readGgufHeader(loopPath);
    const [first, second, third] = [new AbortController(), new AbortController(), new AbortController()];

    // The first answer writes (the looping model never ends its turn) until it is cancelled.
    const writing = await engine.acquire(loopPath, header, first.signal);
    let wrote = () => {};
    const writes = new Promise<void>((resolve) => (wrote = resolve));
    const firstAnswer = new lib.LlamaCompletion({ contextSequence: writing.sequence })
      .generateCompletion('abc', { signal: first.signal, stopOnAbortSignal: true, onTextChunk: () => wrote() })
      .finally(() => writing.release());
    await writes;

    // Two more queue behind it; the second is cancelled while it waits.
    const secondSlot = engine.acquire(loopPath, header, second.signal);
    const thirdSlot = engine.acquire(loopPath, header, third.signal);
    second.abort();
    await expect(secondSlot).rejects.toThrow(/Cancelled while waiting/);
    first.abort();
    await firstAnswer;

    // The release wakes the third (before the fix it woke the cancelled second, and the third waited forever).
    const slot = await thirdSlot;
    const answer = await new lib.LlamaCompletion({ contextSequence: slot.sequence }).generateCompletion('abc', { maxTokens: 5 });
    expect(answer).toBe('defgh');
    slot.release();
    await engine.close();
  });

  it('max_loaded: loading another chat model unloads the least recently used idle one (embedding models do not count)', async () => {
    const { timers, pending } = manualTimers();
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ max_loaded: 2, idle_unload_seconds: 0 }), timers });
    const [chat, loop, other, embed] = await Promise.all([chatPath, loopPath, otherPath, embedPath].map((p) => readGgufHeader(p)));
    const signal = new AbortController().signal;
    (await engine.acquire(chatPath, chat!, signal)).release();
    (await engine.acquire(loopPath, loop!, signal)).release();
    await engine.embed(embedPath, embed!, ['x']);
    // chat.gguf is used again: loop.gguf is now the least recently used.
    (await engine.acquire(chatPath, chat!, signal)).release();
    (await engine.acquire(otherPath, other!, signal)).release();
    expect(engine.state(loopPath).state).toBe('unloaded');
    expect(engine.state(chatPath).state).toBe('loaded');
    expect(engine.state(otherPath).state).toBe('loaded');
    expect(engine.state(embedPath).state).toBe('loaded');
    expect(engine.residents().map((r) => r.path).sort()).toEqual([chatPath, otherPath].sort());
    expect(pending.size).toBe(0);
    await engine.close();
  });

  it('max_loaded: a model writing an answer is never unloaded; an answer for another waits (cancellable), an explicit load is refused', async () => {
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ max_loaded: 1, idle_unload_seconds: 0 }) });
    const [chat, other] = await Promise.all([chatPath, otherPath].map((p) => readGgufHeader(p)));
    const writing = await engine.acquire(chatPath, chat!, new AbortController().signal);

    await expect(engine.load(otherPath, other!)).rejects.toMatchObject({ kind: 'busy', message: expect.stringMatching(/max_loaded = 1/) });
    const cancelled = new AbortController();
    const gaveUp = engine.acquire(otherPath, other!, cancelled.signal);
    let got = false;
    const waiting = engine.acquire(otherPath, other!, new AbortController().signal).then((slot) => {
      got = true;
      return slot;
    });
    await new Promise((r) => setImmediate(r));
    cancelled.abort();
    await expect(gaveUp).rejects.toThrow(/Cancelled while waiting/);
    expect(got).toBe(false);
    expect(engine.state(chatPath).state).toBe('loaded');
    expect(engine.state(otherPath).state).toBe('unloaded');

    // The answer is done: the idle model makes way for the waiting one.
    writing.release();
    const slot = await waiting;
    expect(engine.state(chatPath).state).toBe('unloaded');
    expect(engine.state(otherPath).state).toBe('loaded');
    slot.release();
    await engine.close();
  });

  it('refuses a vision projector (mmproj) as a chat model, with the reason', async () => {
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config() });
    const header = await readGgufHeader(projectorPath);
    await expect(engine.acquire(projectorPath, header, new AbortController().signal)).rejects.toThrow(/vision projector/);
    await engine.close();
  });

  it('routing among local models: the loaded one first, then one that fits the free memory counting what loading it frees', async () => {
    const models = join(dir, 'routing');
    mkdirSync(join(models, 'models'), { recursive: true });
    const at = (name: string) => join(models, 'models', name);
    // Ids are hashes of the paths: which sorts first is arbitrary, so each case is checked both ways round.
    writeFileSync(at('a.gguf'), makeGguf({ name: 'Routed A', contextLength: 1024 }));
    writeFileSync(at('b.gguf'), makeGguf({ name: 'Routed B', contextLength: 1024 }));
    writeFileSync(at('embed.gguf'), makeGguf({ kind: 'embedding', name: 'Routed Embed' }));
    writeFileSync(at('mmproj.gguf'), makeGguf({ architecture: 'clip', name: 'Routed Projector' }));
    let free = 64 * 1024 ** 3;
    const cfg = config({ search_paths: [], max_loaded: 1, idle_unload_seconds: 0 });
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: cfg, freeMemory: () => free });
    const local = new LocalModels({ dataDir: models, config: cfg, engine, registeredPaths: () => [], env: () => ({ home: models, platform: 'linux' }) });
    const files = await local.refresh();
    // What chatModels routes: discovery leaves the projector out, the catalogue the embedding model.
    expect(files.map((f) => f.name).sort()).toEqual(['Routed A', 'Routed B', 'Routed Embed']);
    const chatFiles = files.filter((f) => !f.header?.pooling && !f.header?.projector);
    const candidates = () => {
      const fits = localFits(local, chatFiles.map((f) => f.path), cfg().local_models);
      return chatFiles.map((f) => ({ id: f.id, name: f.name, provider: 'llama_cpp' as const, capabilities: localCaps, local_fit: fits.get(f.path) }));
    };
    const pick = () => files.find((f) => f.id === route(PLAIN, candidates(), () => HEALTHY, ROUTING).model_id)!.name;

    for (const loadedName of ['Routed A', 'Routed B']) {
      const file = files.find((f) => f.name === loadedName)!;
      (await engine.acquire(file.path, file.header!, new AbortController().signal)).release();
      expect(pick()).toBe(loadedName);
    }
    // Not loaded, B fits only with the memory A would give back (max_loaded = 1 unloads it first).
    const a = files.find((f) => f.name === 'Routed A')!;
    const need = memoryNeeded(local, a.path, cfg().local_models)!;
    free = need - 1;
    const fit = localFits(local, chatFiles.map((f) => f.path), cfg().local_models);
    expect(fit.get(a.path)).toMatchObject({ loaded: false, fits_memory: true });
    await engine.unload(files.find((f) => f.name === 'Routed B')!.path);
    expect(localFits(local, [a.path], cfg().local_models).get(a.path)).toMatchObject({ loaded: false, fits_memory: false });
    await engine.close();
  });

  it('completes `abc` greedily with the generated model (the fixture is what the tests rely on)', async () => {
    const engine = new LocalEngine({ importLibrary: sharedLibrary, config: config({ idle_unload_seconds: 0 }) });
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
    // node-llama-cpp as the app imports it (not sharedLibrary): one test goes that way.
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
