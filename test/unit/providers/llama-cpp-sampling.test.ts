import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../../shared/config.js';
import { LocalEngine } from '../../../main/core/models/local/engine.js';
import { readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { LocalModels } from '../../../main/core/models/local/registry.js';
import { llamaCppProvider } from '../../../main/core/models/providers/llama-cpp.js';
import { DEFAULT_TEMPERATURE, localSampling } from '../../../main/core/models/local/host/local-sampling.js';
import type { ProviderEvent, ProviderRequest } from '../../../main/core/platform/ports/providers.js';
import { writeGguf } from '../../../scripts/models/gguf-writer.js';
import { CHAT_ANSWER, LOOP_TEXT, makeGguf } from '../../fixtures/gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-sampling-'));
const chatPath = join(dir, 'chat.gguf');
const loopPath = join(dir, 'loop.gguf');
writeFileSync(chatPath, makeGguf({ name: 'Alphabet', contextLength: 1024 }));
writeFileSync(loopPath, makeGguf({ name: 'Loop', loop: true, contextLength: 1024 }));

const parsed = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, idle_unload_seconds: 0, search_paths: [] } });
const config = (): Config => parsed;
const engine = new LocalEngine({ config });
const local = new LocalModels({ dataDir: dir, config, engine, registeredPaths: () => [], env: () => ({ home: dir, platform: 'linux' }) });
const provider = llamaCppProvider(local);

beforeAll(async () => {
  await local.add(chatPath);
  await local.add(loopPath);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function answer(path: string, sampling: Partial<ProviderRequest> = {}) {
  const events: ProviderEvent[] = [];
  const request: ProviderRequest = { model: 'm', endpoint_url: path, api_key: null, messages: [{ role: 'user', content: 'hi' }], passages: [], has_datasets: false, signal: new AbortController().signal, ...sampling };
  for await (const event of provider.stream(request)) events.push(event);
  return { text: events.map((e) => (e.type === 'delta' ? e.text : '')).join(''), events };
}

// Loading llama.cpp and a model takes a second or two, more on a busy machine.
describe('local answers take the request’s sampling', { timeout: 60_000 }, () => {
  it('max_tokens stops a model that would write forever, and says the limit cut it', async () => {
    const { text, events } = await answer(loopPath, { max_tokens: 30 });
    // One byte-level token per letter: exactly 30 of the endless alphabet.
    expect(text).toBe(LOOP_TEXT.repeat(2).slice(0, 30));
    expect(events).toContainEqual({ type: 'finish', reason: 'length' });
    // The finish comes before the usage, and the usage still comes.
    expect(events.at(-1)).toMatchObject({ type: 'usage', output_tokens: 30 });
  });

  it('a stop sequence ends the answer before it, says which one, and is not a cut by the limit', async () => {
    const { text, events } = await answer(chatPath, { stop: ['xyz', 'fgh'] });
    expect(text).toBe('abcde');
    expect(events.filter((e) => e.type === 'finish')).toEqual([{ type: 'finish', reason: 'stop', stop_sequence: 'fgh' }]);
  });

  it('an answer that ends its turn within the limit is not reported as cut', async () => {
    const { text, events } = await answer(chatPath, { max_tokens: 200, temperature: 0 });
    expect(text).toBe(CHAT_ANSWER);
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });
});

describe('which sampling a local model uses', () => {
  it('the request first, then what the GGUF recommends, then a temperature of 0.7 — never greedy by default', () => {
    expect(localSampling({}, {})).toEqual({ temperature: DEFAULT_TEMPERATURE });
    expect(DEFAULT_TEMPERATURE).toBeGreaterThan(0);
    const model = { temperature: 0.6, top_p: 0.95, top_k: 20, min_p: 0.05 };
    expect(localSampling({}, model)).toEqual({ temperature: 0.6, topP: 0.95, topK: 20, minP: 0.05 });
    expect(localSampling({ temperature: 0, top_p: 0.5, stop: ['###'] }, model)).toEqual({ temperature: 0, topP: 0.5, topK: 20, minP: 0.05, customStopTriggers: ['###'] });
  });

  it('reads the recommended sampling from the GGUF header (general.sampling.*), ignoring nonsense values', async () => {
    const path = join(dir, 'recommends.gguf');
    writeFileSync(
      path,
      writeGguf(
        [
          ['general.architecture', { t: 'str', v: 'llama' }],
          ['general.sampling.temp', { t: 'f32', v: 0.6 }],
          ['general.sampling.top_p', { t: 'f32', v: 0.95 }],
          ['general.sampling.top_k', { t: 'u32', v: 20 }],
          ['general.sampling.min_p', { t: 'f32', v: 7 }],
        ],
        [],
      ),
    );
    expect((await readGgufHeader(path)).sampling).toEqual({ temperature: 0.6, top_p: 0.95, top_k: 20 });
    expect((await readGgufHeader(chatPath)).sampling).toEqual({});
  });
});
