/**
 * The real small chat model of the test-model cache (SmolLM2 135M Instruct, Q4_1, from
 * `npm run fetch-test-models`) through Parley against node-llama-cpp called directly:
 * - tokens per second and time to first token, runs alternated so both see the same load on a
 *   shared machine (goal: Parley within 5%); greedy (temperature 0) on both sides, so both write
 *   the same answer, cut at `TOKENS` tokens;
 * - load time: node-llama-cpp's loadModel + createContext + chat format directly, and Parley's
 *   `POST /models/{id}/load` (the same calls behind an HTTP request), first and again after unload;
 * - resident memory of the served process (and any child it runs the model in) before the model is
 *   loaded, with it loaded, and after `POST /models/{id}/unload`.
 * Both sides use Parley's defaults on this machine: `defaultThreads()` threads, 2 sequences, the
 * same context size and the chat format resolved from the GGUF.
 * Run: node --import tsx test/bench/real-chat.ts (after npm run build and npm run fetch-test-models)
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultThreads } from '../../main/core/models/local/engine.js';
import { realModel } from '../support/real-models.js';
import { readSse } from '../support/sse.js';
import { startServed, type Served } from '../support/served.js';
import { treeRssMb } from './process-cpu.js';
import { printRows, summarize } from './stats.js';

const TOKENS = 128;
/** Pairs of runs (direct, Parley); `PARLEY_BENCH_REAL_RUNS` sets more for a steadier median. */
const RUNS = Number(process.env.PARLEY_BENCH_REAL_RUNS) || 8;
const WARMUP = 2;
const CONTEXT = 2048;
const SEQUENCES = 2;
const PROMPT = 'Write a long story about a lighthouse keeper who finds a message in a bottle. Describe every day of his week.';

interface Sample {
  ttft: number;
  tokensPerSecond: number;
  tokens: number;
}

async function openDirect(modelPath: string, threads: number) {
  const { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createContext({ contextSize: CONTEXT, sequences: SEQUENCES, threads });
  const chatWrapper = resolveChatWrapper(model);
  const loadMs = performance.now() - started;
  const rssLoadedMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  return {
    loadMs,
    rssLoadedMb,
    async once(): Promise<Sample> {
      const started = performance.now();
      const sequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
      let first = 0;
      let tokens = 0;
      await chat.generateResponse([{ type: 'user', text: PROMPT }, { type: 'model', response: [] }], {
        maxTokens: TOKENS,
        temperature: 0,
        onToken: (t) => {
          first ||= performance.now();
          tokens += t.length;
        },
      });
      const ended = performance.now();
      chat.dispose({ disposeSequence: true });
      return { ttft: first - started, tokensPerSecond: (tokens - 1) / ((ended - first) / 1000), tokens };
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}

async function throughParley(parley: Served, modelId: string): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`${parley.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${parley.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: modelId,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: TOKENS,
      temperature: 0,
      messages: [{ role: 'user', content: PROMPT }],
    }),
  });
  if (!res.ok) throw new Error(`/v1/chat/completions answered ${res.status}: ${await res.text()}`);
  let first = 0;
  let last = 0;
  let tokens = 0;
  for await (const e of readSse(res)) {
    if (e.data === '[DONE]') break;
    const chunk = JSON.parse(e.data) as { choices: { delta?: { content?: string } }[]; usage?: { completion_tokens: number } };
    if (chunk.choices[0]?.delta?.content) {
      first ||= performance.now();
      last = performance.now();
    }
    if (chunk.usage) tokens = chunk.usage.completion_tokens;
  }
  // The last text event, not the usage event after it: the same end as the direct side's.
  return { ttft: first - started, tokensPerSecond: (tokens - 1) / ((last - first) / 1000), tokens };
}

function rows(label: string, samples: Sample[]) {
  const ttft = summarize(samples.map((s) => s.ttft));
  return {
    path: label,
    ttft_p50_ms: ttft.p50.toFixed(1),
    ttft_p95_ms: ttft.p95.toFixed(1),
    tokens_per_s_p50: summarize(samples.map((s) => s.tokensPerSecond)).p50.toFixed(1),
    tokens_per_answer: summarize(samples.map((s) => s.tokens)).p50,
  };
}

export async function runRealChatBench() {
  const modelPath = realModel('chat').path;
  const threads = defaultThreads();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-real-chat-'));
  mkdirSync(join(dataDir, 'models'));
  copyFileSync(modelPath, join(dataDir, 'models', 'SmolLM2-135M-Instruct.Q4_1.gguf'));
  writeFileSync(join(dataDir, 'parley.toml'), `[local_models]\ngpu = false\nidle_unload_seconds = 0\ncontext_size = ${CONTEXT}\nparallel = ${SEQUENCES}\nsearch_paths = []\n`);
  const parley = await startServed({ dataDir });
  let direct: Awaited<ReturnType<typeof openDirect>> | undefined;
  try {
    const models = (await (await parley.api('/models')).json()) as { data: { id: string; local?: { path: string } }[] };
    const model = models.data.find((m) => m.local?.path.endsWith('SmolLM2-135M-Instruct.Q4_1.gguf'));
    if (!model) throw new Error('SmolLM2 is not listed by the served process');
    const rssBefore = treeRssMb(parley.pid);
    const loadStarted = performance.now();
    const loaded = await parley.api(`/models/${model.id}/load`, { method: 'POST' });
    if (!loaded.ok) throw new Error(`load answered ${loaded.status}: ${await loaded.text()}`);
    const parleyLoadMs = performance.now() - loadStarted;
    const rssLoaded = treeRssMb(parley.pid);
    direct = await openDirect(modelPath, threads);

    const directSamples: Sample[] = [];
    const parleySamples: Sample[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const pair = i % 2 === 0 ? [await direct.once(), await throughParley(parley, model.id)] : [await throughParley(parley, model.id), await direct.once()].reverse();
      if (i < WARMUP) continue;
      directSamples.push(pair[0]!);
      parleySamples.push(pair[1]!);
    }
    const rssAnswered = treeRssMb(parley.pid);
    const unloaded = await parley.api(`/models/${model.id}/unload`, { method: 'POST' });
    if (!unloaded.ok) throw new Error(`unload answered ${unloaded.status}: ${await unloaded.text()}`);
    const rssUnloaded = treeRssMb(parley.pid);
    // Loaded again, the file now in the page cache as it was for the direct load.
    const reloadStarted = performance.now();
    const reloaded = await parley.api(`/models/${model.id}/load`, { method: 'POST' });
    if (!reloaded.ok) throw new Error(`load answered ${reloaded.status}: ${await reloaded.text()}`);
    const parleyReloadMs = performance.now() - reloadStarted;

    const paired = (f: (d: Sample, p: Sample) => number) => summarize(parleySamples.map((p, i) => f(directSamples[i]!, p))).p50;
    const slower = paired((d, p) => (1 - p.tokensPerSecond / d.tokensPerSecond) * 100);
    const ttftAdded = paired((d, p) => p.ttft - d.ttft);
    const ttftMore = paired((d, p) => (p.ttft / d.ttft - 1) * 100);
    return {
      threads,
      /** Parley against direct, median of the paired runs, in percent (positive: Parley slower). */
      slowerPercent: { tokensPerSecond: slower, ttft: ttftMore },
      generation: [
        rows(`node-llama-cpp directly (${threads} thread${threads === 1 ? '' : 's'}, ${SEQUENCES} sequences, context ${CONTEXT})`, directSamples),
        rows('through Parley (/v1/chat/completions, SSE, loopback)', parleySamples),
        {
          path: `Parley vs direct (median of ${RUNS} paired runs)`,
          ttft_p50_ms: `${ttftAdded >= 0 ? '+' : ''}${ttftAdded.toFixed(1)} (${ttftMore >= 0 ? '+' : ''}${ttftMore.toFixed(1)}%)`,
          ttft_p95_ms: '',
          tokens_per_s_p50: `${Math.abs(slower).toFixed(1)}% ${slower >= 0 ? 'slower' : 'faster'}`,
          tokens_per_answer: '',
        },
      ],
      memory: [
        { what: 'load time, node-llama-cpp directly (loadModel + createContext + chat format)', value: `${direct.loadMs.toFixed(0)} ms` },
        { what: 'load time through Parley (POST /models/{id}/load), first load', value: `${parleyLoadMs.toFixed(0)} ms` },
        { what: 'load time through Parley, loaded again after unload', value: `${parleyReloadMs.toFixed(0)} ms` },
        { what: 'served process RSS, model not loaded', value: `${rssBefore.toFixed(0)} MB` },
        { what: 'served process RSS, model loaded', value: `${rssLoaded.toFixed(0)} MB` },
        { what: `served process RSS after ${RUNS + WARMUP} answers`, value: `${rssAnswered.toFixed(0)} MB` },
        { what: 'served process RSS after unload', value: `${rssUnloaded.toFixed(0)} MB` },
        { what: 'this process RSS added by loading directly', value: `${direct.rssLoadedMb.toFixed(0)} MB` },
      ],
    };
  } finally {
    await direct?.close();
    await parley.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRealChatBench();
  printRows(`SmolLM2 135M Q4_1 (${TOKENS} tokens per answer, temperature 0)`, result.generation);
  printRows('SmolLM2 135M Q4_1: load time and memory', result.memory);
}
