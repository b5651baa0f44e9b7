/**
 * Local GGUF models (llama.cpp through node-llama-cpp) on a generated model (test/fixtures/gguf.ts,
 * the looping variant, so every answer is exactly `TOKENS` tokens), one thread:
 * - tokens per second, time to first token and CPU time per token through Parley (served mode,
 *   its own process, `POST /v1/chat/completions` streamed over loopback) against node-llama-cpp
 *   called directly in this process the way Parley calls it (same context size, threads,
 *   sequences, chat format, default sampling, token count); runs alternate, so both see the same
 *   load on a shared machine (target: Parley ≤ 5% slower). CPU time is the generating process's
 *   (llama.cpp's thread included; /proc ticks of 10 ms, summed over the runs), and for Parley also
 *   the reading client's;
 * - embedding throughput (chunks per second) of the generated embedding model through Parley's
 *   engine, as ingestion calls it.
 * Run: node --import tsx test/bench/local-models.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigSchema } from '../../shared/config.js';
import { LocalEngine } from '../../main/core/models/local/engine.js';
import { readGgufHeader } from '../../main/core/models/local/gguf-header.js';
import { makeGguf } from '../fixtures/gguf.js';
import { startServed, type Served } from '../support/served.js';
import { treeCpuSeconds } from './process-cpu.js';
import { readSse } from '../support/sse.js';
import { printRows, summarize } from './stats.js';

const TOKENS = 200;
/** Pairs of runs (direct, Parley); `PARLEY_BENCH_LOCAL_RUNS` sets more for a steadier median on a busy machine. */
const RUNS = Number(process.env.PARLEY_BENCH_LOCAL_RUNS) || 30;
const WARMUP = 3;
const CONTEXT = 2048;
/** Parley's default `[local_models] parallel`: the direct context holds as many sequences, so both batch alike. */
const SEQUENCES = 2;
const EMBED_CHUNKS = 400;

interface Sample {
  ttft: number;
  tokensPerSecond: number;
  /** CPU seconds of the generating process (llama.cpp's thread included) for this answer. */
  cpu: number;
  /** CPU seconds of the reading client (Parley only: the bench process parsing the SSE stream). */
  clientCpu?: number;
  /** Text events the answer came in. */
  events: number;
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

function rows(label: string, samples: Sample[]) {
  const ttft = summarize(samples.map((s) => s.ttft));
  const tps = summarize(samples.map((s) => s.tokensPerSecond));
  const total = (f: (s: Sample) => number) => (samples.reduce((sum, s) => sum + f(s), 0) * 1000) / (samples.length * TOKENS);
  return {
    path: label,
    ttft_p50_ms: ttft.p50.toFixed(1),
    ttft_p95_ms: ttft.p95.toFixed(1),
    tokens_per_s_p50: tps.p50.toFixed(0),
    cpu_ms_per_token: total((s) => s.cpu).toFixed(3),
    client_cpu_ms_per_token: samples[0]?.clientCpu === undefined ? '' : total((s) => s.clientCpu ?? 0).toFixed(3),
    events_per_answer: summarize(samples.map((s) => s.events)).p50,
  };
}

/**
 * node-llama-cpp called directly the way Parley calls it: one context (same size, threads and
 * sequences), the chat format resolved once at load, and per answer a sequence, a LlamaChat and
 * generateResponse with default sampling, timed from taking the sequence.
 */
async function openDirect(modelPath: string) {
  const { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createContext({ contextSize: CONTEXT, sequences: SEQUENCES, threads: 1 });
  const chatWrapper = resolveChatWrapper(model);
  return {
    async once(): Promise<Sample> {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const sequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
      let first = 0;
      let events = 0;
      await chat.generateResponse([{ type: 'user', text: 'go' }, { type: 'model', response: [] }], {
        maxTokens: TOKENS,
        onTextChunk: () => {
          first ||= performance.now();
          events++;
        },
      });
      const ended = performance.now();
      chat.dispose({ disposeSequence: true });
      return { ttft: first - started, tokensPerSecond: (TOKENS - 1) / ((ended - first) / 1000), cpu: cpuSeconds(cpu), events };
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}

async function throughParley(parley: Served, modelId: string): Promise<Sample> {
  const cpu = treeCpuSeconds(parley.pid);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const res = await fetch(`${parley.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${parley.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: modelId, stream: true, max_tokens: TOKENS, messages: [{ role: 'user', content: 'go' }] }),
  });
  let first = 0;
  let text = '';
  let events = 0;
  for await (const e of readSse(res)) {
    if (e.data === '[DONE]') break;
    const piece = (JSON.parse(e.data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
    if (piece) {
      first ||= performance.now();
      text += piece;
      events++;
    }
  }
  const ended = performance.now();
  if (text.length !== TOKENS) throw new Error(`expected ${TOKENS} characters through Parley, got ${text.length}`);
  const cpuAfter = treeCpuSeconds(parley.pid);
  return {
    ttft: first - started,
    tokensPerSecond: (TOKENS - 1) / ((ended - first) / 1000),
    cpu: cpu === null || cpuAfter === null ? Number.NaN : cpuAfter - cpu,
    clientCpu: cpuSeconds(clientCpu),
    events,
  };
}

async function embeddings(path: string): Promise<Record<string, string | number>> {
  const config = ConfigSchema.parse({ local_models: { threads: 1, gpu: false, idle_unload_seconds: 0 } });
  const engine = new LocalEngine({ config: () => config });
  const header = await readGgufHeader(path);
  // Chunks of about 500 characters, as ingestion makes them.
  const words = 'the keeper lights the lamp at dusk and winds the clockwork that turns the lens'.split(' ');
  const chunks = Array.from({ length: EMBED_CHUNKS }, (_, i) => Array.from({ length: 90 }, (_, j) => words[(i * 7 + j) % words.length]).join(' '));
  await engine.embed(path, header, chunks.slice(0, 8)); // load + warm up
  const started = performance.now();
  for (let i = 0; i < chunks.length; i += 32) await engine.embed(path, header, chunks.slice(i, i + 32));
  const seconds = (performance.now() - started) / 1000;
  await engine.close();
  return { what: `${EMBED_CHUNKS} chunks of ~500 characters, batches of 32`, chunks_per_s: (EMBED_CHUNKS / seconds).toFixed(0) };
}

export async function runLocalModelsBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-local-'));
  mkdirSync(join(dataDir, 'models'));
  const chatPath = join(dataDir, 'models', 'bench-loop.gguf');
  const embedPath = join(dataDir, 'bench-embed.gguf');
  writeFileSync(chatPath, makeGguf({ name: 'Bench Loop', loop: true, contextLength: CONTEXT }));
  writeFileSync(embedPath, makeGguf({ kind: 'embedding', name: 'Bench Embed' }));
  writeFileSync(join(dataDir, 'parley.toml'), `[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\ncontext_size = ${CONTEXT}\nsearch_paths = []\n`);
  const parley = await startServed({ dataDir });
  const direct = await openDirect(chatPath);
  try {
    const models = (await (await parley.api('/models')).json()) as { data: { id: string; name: string }[] };
    const model = models.data.find((m) => m.name === 'Bench Loop');
    if (!model) throw new Error('the bench model is not listed');
    // Alternated, each first every other time: the machine's load drifts, and both see the same drift.
    const directSamples: Sample[] = [];
    const parleySamples: Sample[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      let d: Sample;
      let p: Sample;
      if (i % 2 === 0) {
        d = await direct.once();
        p = await throughParley(parley, model.id);
      } else {
        p = await throughParley(parley, model.id);
        d = await direct.once();
      }
      if (i < WARMUP) continue;
      directSamples.push(d);
      parleySamples.push(p);
    }
    const d = rows('node-llama-cpp directly (same context, sequences, chat format)', directSamples);
    const p = rows('through Parley (/v1/chat/completions, SSE, over loopback)', parleySamples);
    // Each Parley run against the direct run beside it (same load), then the median of those.
    const paired = (f: (direct: Sample, parley: Sample) => number) => summarize(parleySamples.map((ps, i) => f(directSamples[i]!, ps))).p50;
    const slower = paired((ds, ps) => (1 - ps.tokensPerSecond / ds.tokensPerSecond) * 100);
    const ttftAdded = paired((ds, ps) => ps.ttft - ds.ttft);
    const cpuMore = (Number(p.cpu_ms_per_token) / Number(d.cpu_ms_per_token) - 1) * 100;
    return {
      generation: [
        d,
        p,
        {
          path: 'Parley vs direct (median of the paired runs; CPU: totals)',
          ttft_p50_ms: `+${ttftAdded.toFixed(1)}`,
          tokens_per_s_p50: `${Math.abs(slower).toFixed(1)}% ${slower >= 0 ? 'slower' : 'faster'}`,
          cpu_ms_per_token: `${cpuMore >= 0 ? '+' : ''}${cpuMore.toFixed(1)}%`,
        },
      ],
      embeddings: [await embeddings(embedPath)],
    };
  } finally {
    await direct.close();
    await parley.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runLocalModelsBench();
  printRows(`Local model (generated GGUF, 1 thread, ${TOKENS} tokens per answer)`, result.generation);
  printRows('Local embeddings (generated GGUF, 1 thread)', result.embeddings);
}
