/**
 * `npm run bench`: every benchmark, one after another, as tables to copy into docs/performance.md. Rows
 * that measure one of issue #12's goals carry a `target` and a `met` column (test/bench/targets.ts),
 * and the run closes with one table of every goal: met, not met, or not measured. A bench that
 * fails or stalls is reported and the others still run (test/bench/guard.ts).
 */
import { runAttacksBench } from './attacks.js';
import { runChatBench } from './chat.js';
import { runFoldersBench } from './folders.js';
import { guarded } from './guard.js';
import { runIngestBench } from './ingest.js';
import { runInstancesBench } from './instances.js';
import { runLocalModelsBench } from './local-models.js';
import { runMetricsBench } from './metrics.js';
import { runPipelineBench } from './pipeline.js';
import { runGroundedBench } from './grounded.js';
import { runRealChatBench } from './real-chat.js';
import { runRealEmbeddingsBench } from './real-embeddings.js';
import { relevanceCollectionDirs, relevanceTable, relevanceTitle, runRelevanceBench } from './relevance.js';
import { benchDimensions, runRetrievalBench } from './retrieval.js';
import { runRoutingBench } from './routing.js';
import { runSmallFilesBench } from './small-files.js';
import { runStartupBench } from './startup.js';
import { withBenchPostgres } from './postgres.js';
import { printRows, type Row } from './stats.js';
import { applyGoals, goalSummary } from './targets.js';

// `PARLEY_BENCH_SIZES=100000 npm run bench`: a quicker run without the 1M-chunk database (its goals then read "not measured");
// `PARLEY_BENCH_DIMENSIONS=384 npm run bench`: without the 1,536-d vectors (see benchDimensions).
// `PARLEY_IR_COLLECTION=/data/cranfield:/data/medline:/data/cisi`: the relevance collections (test/bench/data/README.md);
// `PARLEY_BENCH_REAL=0`: without the real models' parts (SmolLM2, MiniLM throughput, grounded answers);
// `PARLEY_BENCH_POSTGRES_URL=postgres://…` (or `test`): retrieval, relevance and upload → ready on PostgreSQL too (./postgres.ts),
// and the two-instance chat bench (./instances.ts; skipped without it).
const sizes = (process.env.PARLEY_BENCH_SIZES ?? '')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
// `PARLEY_BENCH_ONLY=attacks npm run bench` (names, comma-separated): only those benches; every
// other goal then reads "not measured". Names: routing, chat, instances, ingest, pipeline, small-files, startup,
// retrieval, relevance, metrics, local-models, real-chat, real-embeddings, grounded, attacks, folders.
const only = new Set((process.env.PARLEY_BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean));
/** `guarded`, for a bench this run includes; undefined (not run) for one it leaves out. */
const selected = <T>(key: string, name: string, run: () => Promise<T>): Promise<T | undefined> => (only.size === 0 || only.has(key) ? guarded(name, run) : Promise.resolve(undefined));
const started = performance.now();
const tables: Parameters<typeof goalSummary>[0] = {};

const routing = await selected('routing', 'Routing', runRoutingBench);
if (routing) {
  printRows('Routing (100k decisions, 20 models)', routing.map((r) => ({ benchmark: r.name, p50_us: r.p50_us.toFixed(1), p95_us: r.p95_us.toFixed(1), p99_us: r.p99_us.toFixed(1) })));
}
const chat = await selected('chat', 'Time to first token', runChatBench);
if (chat) {
  tables.ttft = chat.ttft;
  printRows('Time to first token (SSE, loopback)', applyGoals('ttft', chat.ttft));
  printRows('Concurrent streams on loopback', chat.concurrent);
}
const instances = await selected('instances', 'Two instances', () => withBenchPostgres((postgres) => runInstancesBench(postgres)));
if (instances && 'skipped' in instances) process.stdout.write(`\nTwo instances: skipped — ${instances.skipped}\n`);
else if (instances) printRows(`${String(instances.rows[0]?.streams)} concurrent streams (302-token answers) over two instances on one PostgreSQL, and on one SQLite instance`, instances.rows);
const ingest = await selected('ingest', 'Ingestion', runIngestBench);
if (ingest) {
  tables.ingest = ingest.map((r): Row => ({ ...r }));
  printRows('Ingestion (parse + chunk, built worker)', applyGoals('ingest', tables.ingest));
}
const pipeline = await selected('pipeline', 'Upload → ready', () => withBenchPostgres((postgres) => runPipelineBench(postgres)));
if (pipeline) {
  tables.pipeline = pipeline;
  printRows('Upload → ready through served mode', applyGoals('pipeline', pipeline));
}
const smallFiles = await selected('small-files', '10,000 small files', runSmallFilesBench);
if (smallFiles) printRows('10,000 small files uploaded at once (the dataset read over and over meanwhile)', smallFiles);
const folders = await selected('folders', 'Watched folder', runFoldersBench);
if (folders) {
  tables.folders = folders.edits;
  printRows('A followed folder of 10,000 small files: first scan (the dataset page read over and over meanwhile)', folders.scan);
  printRows('A followed folder: a file edited → its new text found by search', applyGoals('folders', folders.edits));
}
const startup = await selected('startup', 'Start-up', () => runStartupBench());
if (startup) {
  tables.startup = startup.map((r): Row => ({ ...r }));
  printRows('Served mode start-up: spawn → first /api/health 200', applyGoals('startup', tables.startup));
}
const dimensions = benchDimensions();
const retrieval = await selected('retrieval', 'Retrieval', () =>
  withBenchPostgres((postgres) => runRetrievalBench({ ...(sizes.length > 0 ? { sizes } : {}), ...(dimensions ? { dimensions } : {}), ...(postgres ? { postgres } : {}) })),
);
if (retrieval) {
  tables.retrieval = retrieval.map((r): Row => ({ ...r }));
  printRows('Retrieval, top 10 (generated corpus; 1M chunks takes a few minutes to build)', applyGoals('retrieval', tables.retrieval));
}

const relevanceRows: Array<Record<string, string | number> & { collection: string }> = [];
for (const dir of relevanceCollectionDirs()) {
  const relevance = await selected('relevance', `Relevance (${dir})`, () => runRelevanceBench(dir));
  if (relevance && 'skipped' in relevance) process.stdout.write(`\nRelevance: skipped — ${relevance.skipped}\n`);
  else if (relevance) {
    const rows = relevanceTable(relevance);
    relevanceRows.push(...rows.map((r) => ({ ...r, collection: relevance.collection })));
    printRows(relevanceTitle(relevance), rows);
  }
}

const metrics = await selected('metrics', 'Admin metrics', runMetricsBench);
if (metrics) printRows('Admin metrics (100k usage events, 50 users, a year)', metrics);
const local = await selected('local-models', 'Local models', runLocalModelsBench);
if (local) {
  printRows('Local model (generated GGUF, 1 thread, 200 tokens per answer)', local.generation);
  printRows('Local embeddings (generated GGUF, 1 thread)', local.embeddings);
}
const real = process.env.PARLEY_BENCH_REAL !== '0';
const realChat = real ? await selected('real-chat', 'SmolLM2 through Parley vs directly', runRealChatBench) : undefined;
if (realChat) {
  printRows('SmolLM2 135M Q4_1 (real model, temperature 0)', realChat.generation);
  printRows('SmolLM2 135M Q4_1: load time and memory', realChat.memory);
}
const realEmbeddings = real ? await selected('real-embeddings', 'all-MiniLM-L6-v2 throughput', runRealEmbeddingsBench) : undefined;
if (realEmbeddings) {
  printRows('all-MiniLM-L6-v2 F16 through Parley’s engine (batches of 32)', realEmbeddings.engine);
  printRows('Upload → hybrid-ready through served mode (all-MiniLM-L6-v2)', realEmbeddings.upload);
}
const grounded = real ? await selected('grounded', 'Grounded answers', runGroundedBench) : undefined;
if (grounded) printRows('Grounded answers, SmolLM2 135M Q4_1 over 4 Markdown files (no target)', grounded.summary);

const attacks = await selected('attacks', 'Health under attack', runAttacksBench);
if (attacks) {
  tables.attacks = attacks;
  printRows('/api/health while a long thread, runaway answers and slow bodies attack at once (issue 27)', applyGoals('attacks', attacks));
}

const goals: Row[] = goalSummary(tables).map((g) => ({ ...g }));
for (const row of relevanceRows.filter((r) => r.met !== '')) {
  goals.push({ goal: `relevance nDCG@10 on ${row.collection}, ${String(row.ranking)}`, value: row.ndcg_at_10, target: row.target, met: row.met });
}
for (const row of realEmbeddings?.engine.filter((r) => r.met !== '') ?? []) {
  goals.push({ goal: `MiniLM embedding, ${String(row.chunks)}`, value: `${String(row.chunks_per_s)} chunks/s`, target: row.target, met: row.met });
}
if (realChat) {
  const { tokensPerSecond, ttft } = realChat.slowerPercent;
  const percent = (p: number, more: string, less: string) => `${Math.abs(p).toFixed(1)}% ${p >= 0 ? more : less}`;
  goals.push({ goal: 'SmolLM2 tokens/s through Parley vs directly', value: percent(tokensPerSecond, 'slower', 'faster'), target: '≤ 5% slower', met: tokensPerSecond <= 5 ? 'met' : 'not met' });
  goals.push({ goal: 'SmolLM2 time to first token through Parley vs directly', value: percent(ttft, 'longer', 'shorter'), target: '≤ 5% longer', met: ttft <= 5 ? 'met' : 'not met' });
}
if (relevanceRows.length === 0) goals.push({ goal: 'relevance nDCG@10 (keyword ≥ bm25, hybrid ≥ bm25 + 10%)', value: '', target: '', met: 'not measured' });
printRows(`Issue #12 goals (this run: ${((performance.now() - started) / 60_000).toFixed(0)} min on a shared 2-core machine)`, goals);
