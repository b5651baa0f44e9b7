/**
 * The team server under chat load (issue #33): two served-mode instances on one PostgreSQL database
 * and one data directory, 100 concurrent streamed answers alternating between them, each a fixed
 * answer of a few hundred tokens from the deterministic upstream. Reports time to first token
 * (p50/p95), the wall time until the last stream ended, streams completed whole and in order,
 * errors, each instance's peak resident memory, and the CPU seconds each instance, PostgreSQL and
 * this process (the 100 clients and the upstream) spent meanwhile; then the same on one instance
 * on SQLite, the desktop's storage, as the reference on the same machine. Needs `PARLEY_BENCH_POSTGRES_URL` (./postgres.ts).
 * Run: PARLEY_BENCH_POSTGRES_URL=test node --import tsx test/bench/instances.ts (after npm run build)
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startUpstream } from '../fixtures/upstream.js';
import { tempDir } from '../support/core.js';
import { randomApiKey, startServed, type Served } from '../support/served.js';
import { readSse } from '../support/sse.js';
import { createDatabase, dropDatabase, serverCpu, withBenchPostgres, type BenchPostgres } from './postgres.js';
import { treeCpuSeconds, treeRssMb } from './process-cpu.js';
import { printRows, summarize, type Row } from './stats.js';

const STREAMS = Number(process.env.PARLEY_BENCH_STREAMS) || 100;
const WORDS = 300;
/** The question; the upstream's `echo` model answers `You said: <it>`, one word a chunk: 302 tokens. */
const QUESTION = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(' ');
const ANSWER = `You said: ${QUESTION}`;

interface StreamResult {
  ttftMs: number | null;
  complete: boolean;
  inOrder: boolean;
  error: string | null;
}

async function oneStream(served: Served, modelId: string, i: number): Promise<StreamResult> {
  const started = performance.now();
  try {
    const res = await fetch(`${served.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: QUESTION, stream: true, model_endpoint_override: modelId }),
    });
    if (!res.ok) return { ttftMs: null, complete: false, inOrder: false, error: `${res.status} ${(await res.text()).slice(0, 120)}` };
    let ttftMs: number | null = null;
    let text = '';
    let lastId = -1;
    let inOrder = true;
    let error: string | null = null;
    for await (const e of readSse(res)) {
      const id = Number(e.id);
      if (id !== lastId + 1) inOrder = false;
      lastId = id;
      if (e.event === 'delta') {
        ttftMs ??= performance.now() - started;
        text += (JSON.parse(e.data) as { content: string }).content;
      } else if (e.event === 'error') error = e.data.slice(0, 120);
    }
    return { ttftMs, complete: text === ANSWER, inOrder, error: error ?? (text === ANSWER ? null : `stream ${i}: ${text.length} of ${ANSWER.length} characters`) };
  } catch (error) {
    return { ttftMs: null, complete: false, inOrder: false, error: String(error) };
  }
}

/** Samples both instances' resident memory until stopped; answers each one's peak in MB. */
function peakRss(pids: number[]): { stop(): number[] } {
  const peaks = pids.map((pid) => treeRssMb(pid));
  const sample = () => pids.forEach((pid, k) => (peaks[k] = Math.max(peaks[k] ?? 0, treeRssMb(pid))));
  const timer = setInterval(sample, 25);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/**
 * Starts `count` instances on one data directory (on `databaseUrl` when given, else SQLite), then
 * sends the streams to them in turn; answers the row of figures.
 */
async function loadRun(setup: string, count: number, databaseUrl: string | undefined, upstreamUrl: string, databaseCpu: (() => number | null) | undefined): Promise<Row> {
  const dir = tempDir('parley-bench-instances-');
  // One user's 100 answers at once: above `[chat] max_concurrent_answers` (8) unless raised, and
  // raised in the file the instances read as they start (the data directory is theirs together).
  writeFileSync(`${dir.dir}/parley.toml`, `[chat]\nmax_concurrent_answers = ${STREAMS}\n`);
  const servers: Served[] = [];
  try {
    const key = randomApiKey();
    const env: Record<string, string> = databaseUrl ? { PARLEY_DATABASE_URL: databaseUrl } : {};
    servers.push(...(await Promise.all(Array.from({ length: count }, () => startServed({ dataDir: dir.dir, adminApiKey: key, env })))));
    const made = await servers[0]!.api('/models', { body: { name: 'Bench', provider: 'openai_compatible', endpoint_url: upstreamUrl, api_key: 'sk-bench', model: 'echo' } });
    if (made.status !== 201) throw new Error(`could not add the model: ${made.status} ${await made.text()}`);
    const model = (await made.json()) as { id: string };
    // One warm-up answer on each, so the first streams do not measure start-up's lazy work.
    for (const s of servers) {
      const warm = await oneStream(s, model.id, -1);
      if (!warm.complete) throw new Error(`warm-up answer failed: ${warm.error ?? 'incomplete'}\n${s.output()}`);
    }
    const cpuBefore = servers.map((s) => treeCpuSeconds(s.pid));
    const dbCpuBefore = databaseCpu?.() ?? null;
    const memory = peakRss(servers.map((s) => s.pid));
    // The clients and the upstream share this process: its CPU is the load the instances did not make.
    const ownCpu = process.cpuUsage();
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: STREAMS }, (_, i) => oneStream(servers[i % count]!, model.id, i)));
    const wallMs = performance.now() - started;
    const ownUsed = process.cpuUsage(ownCpu);
    const peaks = memory.stop();
    const cpu = servers.map((s, k) => {
      const before = cpuBefore[k];
      const after = treeCpuSeconds(s.pid);
      return before == null || after === null ? '' : (after - before).toFixed(1);
    });
    const dbCpuAfter = databaseCpu?.() ?? null;
    const ttfts = results.flatMap((r) => (r.ttftMs === null ? [] : [r.ttftMs]));
    const ttft = ttfts.length > 0 ? summarize(ttfts) : null;
    const errors = results.filter((r) => r.error !== null);
    for (const e of errors.slice(0, 5)) process.stderr.write(`instances bench (${setup}): ${e.error}\n`);
    return {
      setup,
      streams: STREAMS,
      tokens_each: ANSWER.split(' ').length,
      ttft_p50_ms: ttft?.p50.toFixed(0) ?? '',
      ttft_p95_ms: ttft?.p95.toFixed(0) ?? '',
      total_s: (wallMs / 1000).toFixed(2),
      complete: results.filter((r) => r.complete).length,
      in_order: results.filter((r) => r.inOrder).length,
      errors: errors.length,
      peak_rss_mb: peaks.map((p) => p.toFixed(0)).join(' / '),
      parley_cpu_s: cpu.join(' / '),
      postgres_cpu_s: dbCpuBefore === null || dbCpuAfter === null ? '' : (dbCpuAfter - dbCpuBefore).toFixed(1),
      clients_and_upstream_cpu_s: ((ownUsed.user + ownUsed.system) / 1e6).toFixed(1),
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    dir.remove();
  }
}

/** Two instances on PostgreSQL; then, for comparison on the same machine, one instance on SQLite. */
export async function runInstancesBench(postgres: BenchPostgres | undefined): Promise<{ rows: Row[] } | { skipped: string }> {
  if (!postgres) return { skipped: 'PARLEY_BENCH_POSTGRES_URL is unset (two instances need PostgreSQL)' };
  const upstream = await startUpstream();
  try {
    const database = createDatabase(postgres.url);
    let two: Row;
    try {
      two = await loadRun('two instances, PostgreSQL', 2, database.url, upstream.openaiBaseUrl, serverCpu(postgres.url));
    } finally {
      dropDatabase(postgres.url, database.name);
    }
    const one = await loadRun('one instance, SQLite', 1, undefined, upstream.openaiBaseUrl, undefined);
    return { rows: [two, one] };
  } finally {
    await upstream.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  withBenchPostgres((postgres) => runInstancesBench(postgres)).then(
    (result) => {
      if ('skipped' in result) process.stdout.write(`Two instances: skipped — ${result.skipped}\n`);
      else printRows(`${STREAMS} concurrent streams over two instances on one PostgreSQL, and one on SQLite`, result.rows);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
