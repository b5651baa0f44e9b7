/**
 * The real embedding model of the test-model cache (all-MiniLM-L6-v2, F16 BERT GGUF, 384-d, mean
 * pooling; `npm run fetch-test-models`):
 * - chunks per second (and per CPU-second of this process and its children, llama.cpp's threads
 *   included) through Parley's engine (`LocalEngine.embed`, as ingestion calls it, batches of 32),
 *   with Parley's default layout (one 1-thread context per core, up to 4; inputs cut to the model's
 *   trained 256 tokens), for chunks of Parley's target size (1,200
 *   characters) and of 500 characters, of the bench's natural text (test/bench/natural-text.ts: its made-up words
 *   cost ~1.7× the tokens of English prose per character, so tokens per chunk are reported too);
 * - upload → hybrid-ready through served mode: a text file uploaded until it is `ready` (keyword
 *   search) and until every passage has its vector (`GET /search/embedding`), with the model found
 *   in the data folder as a fresh install finds it (`embedding_model` left automatic).
 * `PARLEY_BENCH_EMBED_MB` sets the uploaded text's size (default 0.25 MB: the 5 MB takes
 * about 25 minutes at this model's speed on two shared cores).
 * Run: node --import tsx test/bench/real-embeddings.ts (after npm run build and npm run fetch-test-models)
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigSchema } from '../../shared/config.js';
import { LocalEngine } from '../../main/core/models/local/engine.js';
import { embeddingContextCount } from '../../main/core/models/local/embedding-pool.js';
import { readGgufHeader } from '../../main/core/models/local/gguf-header.js';
import { startServed, type Served } from '../support/served.js';
import { naturalText } from './natural-text.js';
import { treeCpuSeconds } from './process-cpu.js';
import { benchEmbeddingModel } from './relevance.js';
import { printRows } from './stats.js';

const MB = 1024 * 1024;
const CHUNKS = Number(process.env.PARLEY_BENCH_EMBED_CHUNKS) || 64;
const UPLOAD_MB = Number(process.env.PARLEY_BENCH_EMBED_MB) || 0.25;

/** `count` pieces of about `chars` characters, cut at spaces. */
function pieces(text: string, chars: number, count: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (out.length < count && at < text.length) {
    let end = Math.min(text.length, at + chars);
    while (end < text.length && text[end] !== ' ') end++;
    out.push(text.slice(at, end));
    at = end + 1;
  }
  return out;
}

async function engineThroughput(path: string): Promise<Array<Record<string, string | number>>> {
  const config = ConfigSchema.parse({ local_models: { gpu: false, idle_unload_seconds: 0 } });
  const engine = new LocalEngine({ config: () => config });
  const header = await readGgufHeader(path);
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  const tokenizer = await (await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error })).loadModel({ modelPath: path, gpuLayers: 0, vocabOnly: true });
  const rows: Array<Record<string, string | number>> = [];
  try {
    const text = naturalText(CHUNKS * 1300 * 2, 11);
    await engine.embed(path, header, pieces(text, 500, 4)); // load + warm up
    for (const chars of [1200, 500]) {
      const chunks = pieces(text, chars, CHUNKS);
      const tokens = chunks.reduce((n, c) => n + tokenizer.tokenize(c).length, 0) / chunks.length;
      // This process and its children: the engine may run llama.cpp in a child process.
      const cpu = treeCpuSeconds(process.pid) ?? Number.NaN;
      const started = performance.now();
      for (let i = 0; i < chunks.length; i += 32) await engine.embed(path, header, chunks.slice(i, i + 32));
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = (treeCpuSeconds(process.pid) ?? Number.NaN) - cpu;
      rows.push({
        chunks: `${chunks.length} of ~${chars} characters`,
        // Before the cut to the trained length.
        tokens_per_chunk: tokens.toFixed(0),
        contexts: `${embeddingContextCount(config.local_models, availableParallelism())} × 1 thread`,
        chunks_per_s: (chunks.length / seconds).toFixed(1),
        chunks_per_cpu_s: (chunks.length / cpuSeconds).toFixed(1),
        target: chars === 1200 ? '≥ 50 chunks/s' : '',
        met: chars === 1200 ? (chunks.length / seconds >= 50 ? 'met' : 'not met') : '',
      });
    }
  } finally {
    await tokenizer.dispose();
    await engine.close();
  }
  return rows;
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function uploadToHybridReady(served: Served): Promise<Record<string, string | number>> {
  const ds = (await (await served.api('/datasets', { body: { name: 'Bench embeddings' } })).json()) as { id: string; kb_id: string };
  const body = naturalText(Math.round(UPLOAD_MB * MB), 5);
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'text/plain' }), 'bench.txt');
  const cpuBefore = treeCpuSeconds(served.pid);
  const started = performance.now();
  const res = await fetch(`${served.url}/api/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${served.apiKey}` } });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  await waitFor('ready', async () => {
    const a = (await (await served.api(`/knowledge-bases/${ds.kb_id}/artifacts/bench.txt`)).json()) as { status: string; error: unknown };
    if (a.status === 'failed') throw new Error(`failed: ${JSON.stringify(a.error)}`);
    return a.status === 'ready' ? true : undefined;
  });
  const ready = (performance.now() - started) / 1000;
  const vectors = await waitFor('vectors', async () => {
    const e = (await (await served.api('/search/embedding')).json()) as { model: { name: string } | null; vectors: { embedded: number; total: number } | null };
    if (!e.model) throw new Error('served mode found no embedding model in its data folder');
    return e.vectors && e.vectors.total > 0 && e.vectors.embedded >= e.vectors.total ? e.vectors : undefined;
  });
  const hybrid = (performance.now() - started) / 1000;
  const cpuAfter = treeCpuSeconds(served.pid);
  const cpu = cpuBefore === null || cpuAfter === null ? Number.NaN : cpuAfter - cpuBefore;
  const mb = body.length / MB;
  return {
    text: `${mb.toFixed(2)} MB natural text, ${vectors.total} passages`,
    ready_s: ready.toFixed(1),
    hybrid_ready_s: hybrid.toFixed(1),
    mb_per_s: (mb / hybrid).toFixed(3),
    chunks_per_s: (vectors.total / (hybrid - ready)).toFixed(1),
    cpu_s: Number.isNaN(cpu) ? 'n/a' : cpu.toFixed(1),
    mb_per_cpu_s: Number.isNaN(cpu) ? 'n/a' : (mb / cpu).toFixed(3),
  };
}

export async function runRealEmbeddingsBench() {
  const path = benchEmbeddingModel();
  const engine = await engineThroughput(path);
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-real-embed-'));
  mkdirSync(join(dataDir, 'models'));
  copyFileSync(path, join(dataDir, 'models', 'all-MiniLM-L6-v2.F16.gguf'));
  writeFileSync(join(dataDir, 'parley.toml'), '[local_models]\ngpu = false\nidle_unload_seconds = 0\nsearch_paths = []\n');
  const served = await startServed({ dataDir });
  try {
    return { engine, upload: [await uploadToHybridReady(served)] };
  } finally {
    await served.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRealEmbeddingsBench();
  printRows('all-MiniLM-L6-v2 F16 through Parley’s engine (batches of 32)', result.engine);
  printRows('Upload → hybrid-ready through served mode (all-MiniLM-L6-v2 found in the data folder)', result.upload);
}
