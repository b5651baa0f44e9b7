/**
 * An agent's transcript fitted into a local model's context: the real node-llama-cpp tokenizer and
 * chat format over a generated GGUF, and the agent path end to end on a model whose context cannot
 * hold the task (a plain sentence, not node-llama-cpp's text) or can hold it only once long tool
 * results are cut.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatHistoryItem, ChatModelFunctionCall } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../shared/config.js';
import { LocalEngine } from '../../../main/core/models/local/engine.js';
import { LocalModels } from '../../../main/core/models/local/registry.js';
import { fitHistory, historyTokens, type ContextFit } from '../../../main/core/models/local/host/llama-cpp-context.js';
import { llamaCppProvider } from '../../../main/core/models/providers/llama-cpp.js';
import type { AgentTurn, AgentTurnEvent } from '../../../main/core/platform/ports/providers.js';
import { ProviderError } from '../../../main/core/platform/ports/providers.js';
import { TOOL_SPECS } from '../../../main/core/answering/agent/tools.js';
import { makeGguf } from '../../fixtures/gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-fit-'));
const smallPath = join(dir, 'small.gguf');
writeFileSync(smallPath, makeGguf({ name: 'Small Context', contextLength: 512 }));
const config = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, idle_unload_seconds: 0 } });
const engine = new LocalEngine({ config: () => config });
const local = new LocalModels({ dataDir: dir, config: () => config, engine, registeredPaths: () => [smallPath] });
let fit: Omit<ContextFit, 'budget'>;

beforeAll(async () => {
  await local.refresh();
  const { lib, llama } = await engine.probe();
  const model = await llama.loadModel({ modelPath: smallPath, gpuLayers: 0 });
  fit = { chatWrapper: new lib.ChatMLChatWrapper(), tokenizer: model.tokenizer, functions: undefined };
});

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name: string, result: string): ChatModelFunctionCall => ({ type: 'functionCall', name, params: { query: name }, result });
const resultOf = (history: ChatHistoryItem[], i: number) => (history.flatMap((h) => (h.type === 'model' ? h.response : [])).filter((r) => typeof r === 'object')[i] as ChatModelFunctionCall).result as string;

function transcript(): ChatHistoryItem[] {
  return [
    { type: 'system', text: 'Answer from the datasets.' },
    { type: 'user', text: 'An earlier question' },
    { type: 'model', response: ['An earlier answer'] },
    { type: 'user', text: 'When is the lamp lit?' },
    { type: 'model', response: [call('first', 'a'.repeat(3000))] },
    { type: 'model', response: [call('second', 'b'.repeat(3000))] },
    { type: 'model', response: [] },
  ];
}

describe('fitting an agent transcript into the context', () => {
  it('leaves a transcript that fits as it is', () => {
    const history = transcript();
    expect(fitHistory(history, { ...fit, budget: 100_000 }, 100_000)).toEqual(history);
  });

  it('shortens the oldest tool result first, and keeps the system message, the question and the open turn', () => {
    const history = transcript();
    const whole = historyTokens(history, fit);
    // Room for everything but ~2,000 characters of one result (one token a byte with this vocabulary).
    const fitted = fitHistory(history, { ...fit, budget: whole - 2000 }, whole);
    expect(historyTokens(fitted, fit)).toBeLessThanOrEqual(whole - 2000);
    expect(resultOf(fitted, 0)).toMatch(/^a{600}… \[Result cut to fit the model's context \(3000 characters\)/);
    expect(resultOf(fitted, 1)).toBe('b'.repeat(3000));
    expect(fitted[0]).toEqual(history[0]);
    expect(fitted.some((h) => h.type === 'user' && h.text === 'When is the lamp lit?')).toBe(true);
    expect(fitted.at(-1)).toEqual({ type: 'model', response: [] });
  });

  it('then drops the earlier conversation, then cuts results, then drops old tool exchanges', () => {
    const history = transcript();
    const bare: ChatHistoryItem[] = [history[0]!, history[3]!, { type: 'model', response: [] }];
    const fitted = fitHistory(history, { ...fit, budget: historyTokens(bare, fit) + 40 }, 512);
    expect(fitted).toEqual(expect.arrayContaining(bare));
    expect(fitted.some((h) => h.type === 'user' && h.text === 'An earlier question')).toBe(false);
    expect(historyTokens(fitted, fit)).toBeLessThanOrEqual(historyTokens(bare, fit) + 40);
  });

  it('says plainly when even the instructions and the question do not fit', () => {
    let error: unknown;
    try {
      fitHistory(transcript(), { ...fit, budget: 5 }, 512);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/^This model's context \(512 tokens\) cannot hold the agent's instructions, tools and question\./);
  });
});

describe('an agent turn on a local model with a small context', () => {
  it('fails with a plain sentence, not node-llama-cpp’s, when the tools cannot fit', async () => {
    const provider = llamaCppProvider(local);
    const messages: AgentTurn[] = [
      { role: 'system', content: 'Answer from the datasets. '.repeat(40) },
      { role: 'user', content: 'When is the lamp lit?' },
    ];
    const events: AgentTurnEvent[] = [];
    let error: unknown;
    try {
      for await (const event of provider.agentTurn!({ model: 'small', endpoint_url: smallPath, api_key: null, signal: new AbortController().signal, messages, tools: TOOL_SPECS, tool_choice: 'auto' })) events.push(event);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/^This model's context \(512 tokens\) cannot hold/);
    expect((error as ProviderError).message).not.toMatch(/context shift strategy/);
  });
});
