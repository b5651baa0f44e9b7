/**
 * Local GGUF models (llama.cpp through node-llama-cpp) on a generated model (test/fixtures/gguf.ts,
 * the looping variant, so every answer is exactly `TOKENS` tokens), one thread:
 * - tokens per second and time to first token through Parley (served mode, its own process,
 *   `POST /v1/chat/completions` streamed over loopback) against node-llama-cpp called directly in
 *   this process with the same settings (target: Parley ≤ 5% slower);
 * - embedding throughput (chunks per second) of the generated embedding model through Parley's
 *   engine, as ingestion calls it.
 * Run: node --import tsx test/bench/local-models.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigSchema } from '../../shared/config.js';
import { LocalEngine } from '../../main/core/local-models/engine.js';
import { readGgufHeader } from '../../main/core/local-models/gguf-header.js';
import { makeGguf } from '../fixtures/gguf.js';
import { startServed } from '../support/served.js';
import { readSse } from '../support/sse.js';
import { printRows, summarize } from './stats.js';

const TOKENS = 200;
const RUNS = 12;
const WARMUP = 2;
const CONTEXT = 2048;
const EMBED_CHUNKS = 400;

interface Sample {
  ttft: number;
  tokensPerSecond: number;
}

function rows(label: string, samples: Sample[]) {
  const ttft = summarize(samples.map((s) => s.ttft));
  const tps = summarize(samples.map((s) => s.tokensPerSecond));
  return { path: label, ttft_p50_ms: ttft.p50.toFixed(1), ttft_p95_ms: ttft.p95.toFixed(1), tokens_per_s_p50: tps.p50.toFixed(0) };
}

async function direct(modelPath: string): Promise<Sample[]> {
  const { getLlama, LlamaChat, LlamaLogLevel } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: CONTEXT, sequences: 2, threads: 1 });
  const samples: Sample[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const sequence = context.getSequence();
    const chat = new LlamaChat({ contextSequence: sequence });
    const started = performance.now();
    let first = 0;
    await chat.generateResponse([{ type: 'user', text: 'go' }, { type: 'model', response: [] }], {
      maxTokens: TOKENS,
      onTextChunk: () => {
        first ||= performance.now();
      },
    });
    const ended = performance.now();
    chat.dispose({ disposeSequence: true });
    if (i >= WARMUP) samples.push({ ttft: first - started, tokensPerSecond: (TOKENS - 1) / ((ended - first) / 1000) });
  }
  await context.dispose();
  await model.dispose();
  return samples;
}

async function throughParley(url: string, apiKey: string, modelId: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: modelId, stream: true, max_tokens: TOKENS, messages: [{ role: 'user', content: 'go' }] }),
    });
    let first = 0;
    let text = '';
    for await (const e of readSse(res)) {
      if (e.data === '[DONE]') break;
      const piece = (JSON.parse(e.data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
      if (piece) {
        first ||= performance.now();
        text += piece;
      }
    }
    const ended = performance.now();
    if (text.length !== TOKENS) throw new Error(`expected ${TOKENS} characters through Parley, got ${text.length}`);
    if (i >= WARMUP) samples.push({ ttft: first - started, tokensPerSecond: (TOKENS - 1) / ((ended - first) / 1000) });
  }
  return samples;
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
  try {
    const directSamples = await direct(chatPath);
    const parley = await startServed({ dataDir });
    let parleySamples: Sample[];
    try {
      const models = (await (await parley.api('/models')).json()) as { data: { id: string; name: string }[] };
      const model = models.data.find((m) => m.name === 'Bench Loop');
      if (!model) throw new Error('the bench model is not listed');
      parleySamples = await throughParley(parley.url, parley.apiKey, model.id);
    } finally {
      await parley.stop();
    }
    const d = rows('node-llama-cpp directly', directSamples);
    const p = rows('through Parley (/v1/chat/completions, SSE)', parleySamples);
    const slower = (1 - Number(p.tokens_per_s_p50) / Number(d.tokens_per_s_p50)) * 100;
    return {
      generation: [d, p, { path: 'Parley vs direct', ttft_p50_ms: `+${(Number(p.ttft_p50_ms) - Number(d.ttft_p50_ms)).toFixed(1)}`, ttft_p95_ms: '', tokens_per_s_p50: `${slower.toFixed(1)}% slower` }],
      embeddings: [await embeddings(embedPath)],
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runLocalModelsBench();
  printRows(`Local model (generated GGUF, 1 thread, ${TOKENS} tokens per answer)`, result.generation);
  printRows('Local embeddings (generated GGUF, 1 thread)', result.embeddings);
}
