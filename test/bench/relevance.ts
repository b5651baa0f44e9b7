/**
 * Relevance benchmark: nDCG@10, recall@10 and MRR@10 on a public IR test collection with graded
 * judgements (Cranfield 1400 by default; Medline, CISI — paragraph-long queries — and any
 * BEIR-format collection too), for
 * - plain FTS5 bm25: every word of the query OR-ed, ranked by FTS5's bm25() over the same index
 *   (same tokenizer, so the same stemming), no stop words, no pruning — the baseline;
 * - for a collection in Chinese or Japanese (CMRC 2018, JSQuAD: SQuAD-format files), a plain FTS5
 *   trigram index of the same passages, the query's trigrams OR-ed (test/bench/relevance/trigram.ts) —
 *   then the baseline (what one would do with SQLite alone, unicode61 making a sentence one word);
 * - Parley's keyword search and hybrid search, through `search.query` (the operation behind
 *   `POST /search`, over the one retrieval function, `main/core/knowledge/retrieval/retrieve.ts`);
 * - with `PARLEY_BENCH_POSTGRES_URL` (./postgres.ts), Parley's keyword search again with the chunks
 *   on PostgreSQL (issue #33's goal: nDCG@10 ≥ 95% of plain bm25's).
 *
 * The documents go through Parley's real ingest path: one text file per document (title, blank
 * line, body) stored by the service, detected, parsed in the parse worker, chunked and indexed.
 * Then the embedding model is configured, and the files already there are embedded in the
 * background as in the app when a person chooses a model (the ingest queue's EmbedQueue, batch by
 * batch); the bench waits for it. Rankings are of documents: a
 * passage counts for its file, a file's first passage is its place (rankings ask for 50 passages,
 * and keep the first 10 distinct files).
 *
 * Hybrid runs the real embedding model of the test-model cache (`npm run fetch-test-models`:
 * all-MiniLM-L6-v2 as a 384-d F16 BERT GGUF, mean pooling; Parley adds no query or passage
 * prefix, and MiniLM wants none). `PARLEY_BENCH_EMBED_GGUF=/path/to/model.gguf` runs another;
 * `PARLEY_BENCH_RELEVANCE_HYBRID=0` leaves hybrid out (seconds instead of minutes).
 *
 * The collections are read from `PARLEY_IR_COLLECTION` (one folder, or several joined by the
 * platform's path delimiter, `:` on Linux), else `test/bench/data/cranfield/`; see
 * test/bench/data/README.md. Without one the bench says so and measures nothing.
 * Run: node --import tsx test/bench/relevance.ts [collection-dir]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bootCore, type Core } from '../../main/boot.js';
import { questionWords } from '../../main/search/index.js';
import { realModel } from '../support/real-models.js';
import { TEST_ADMIN_KEY, tempDir } from '../support/core.js';
import { loadCollection, type IrCollection } from './relevance/collection.js';
import { meanScores, type RankingScores } from './relevance/metrics.js';
import { printRows, summarize } from './stats.js';
import { formFiles } from '../support/form-files.js';
import { hasSpacelessScript, wordList } from '../../shared/words.js';
import { trigramIndex } from './relevance/trigram.js';
import { createDatabase, dropDatabase, withBenchPostgres, type BenchPostgres } from './postgres.js';

export const DEFAULT_COLLECTION_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data', 'cranfield');

/** The folders `PARLEY_IR_COLLECTION` names (several joined by the path delimiter), else the default one. */
export function relevanceCollectionDirs(setting = process.env.PARLEY_IR_COLLECTION): string[] {
  const dirs = (setting ?? '').split(delimiter).filter((d) => d.trim() !== '');
  return dirs.length > 0 ? dirs : [DEFAULT_COLLECTION_DIR];
}

/** The real embedding model of the test-model cache, unless `PARLEY_BENCH_EMBED_GGUF` names another. */
export function benchEmbeddingModel(): string {
  const path = process.env.PARLEY_BENCH_EMBED_GGUF || realModel('embedding').path;
  if (!existsSync(path)) throw new Error(`No embedding model at ${path}: run npm run fetch-test-models (or set PARLEY_BENCH_EMBED_GGUF)`);
  return path;
}

/** Passages asked for per query: enough for 10 distinct files when a file has several passages. */
const PASSAGES = 50;
const TOP = 10;

export interface RelevanceRow extends RankingScores {
  ranking: 'bm25' | 'bm25, stop words out' | 'trigram' | 'keyword' | 'hybrid' | 'keyword on PostgreSQL';
  p50_ms: number;
  p95_ms: number;
}

export interface RelevanceResult {
  collection: string;
  documents: number;
  passages: number;
  /** Which embedding model the hybrid row used. */
  embedding: string;
  /** Storing, parsing, chunking and indexing every document (the service's upload path). */
  ingest_s: number;
  /** Embedding every passage (in the background, as after choosing a model in the app). */
  embed_s: number;
  /**
   * Whether the collection is in a script written without spaces (Chinese, Japanese…): then the
   * baseline is a plain FTS5 trigram index (test/bench/relevance/trigram.ts), and this is the time
   * its index took to build.
   */
  trigram_index_s: number | null;
  /** Storing and indexing every document again with the chunks on PostgreSQL (`PARLEY_BENCH_POSTGRES_URL`), else null. */
  postgres_ingest_s: number | null;
  rows: RelevanceRow[];
}

/**
 * Plain FTS5 bm25 over every word of the query: the baseline, by passage id, best first. With
 * `withoutStopWords`, the words keyword search drops first are left out too: the difference between
 * this and keyword search is its query planning alone.
 */
function bm25Passages(core: Core, kbId: string, query: string, withoutStopWords = false): number[] {
  const words = withoutStopWords ? questionWords(query).words : [...new Set(wordList(query))];
  if (words.length === 0) return [];
  const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
  const statement = core.db.prepare<[string, bigint, bigint, number], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY bm25(chunks_fts) LIMIT ?',
  );
  return core.repos.chunks.kbRanges([kbId]).flatMap((r) => statement.all(match, BigInt(r.lo), BigInt(r.hi), PASSAGES).map((row) => row.id));
}

/** Makes a GGUF file in the core's models folder its embedding model (discovered, then configured). */
async function configureLocalEmbeddings(core: Core, gguf: string): Promise<string> {
  mkdirSync(join(core.dataDir, 'models'), { recursive: true });
  const file = join(core.dataDir, 'models', 'bench-relevance-embed.gguf');
  writeFileSync(file, readFileSync(gguf));
  const owner = core.desktopCaller();
  const { data } = (await core.service.invoke('models.list', {}, owner)) as { data: Array<{ id: string; name: string; local?: { path: string } }> };
  const model = data.find((m) => m.local?.path === file);
  if (!model) throw new Error('The benchmark embedding model was not discovered in the models folder');
  const { version } = (await core.service.invoke('admin.config.get', {}, owner)) as { version: number };
  await core.service.invoke('admin.config.patch', { values: { 'retrieval.embedding_model': model.id }, base_version: version }, owner);
  return `${basename(gguf)}, no prefixes`;
}

interface Ingested {
  kbId: string;
  datasetId: string;
  /** The collection's document id of each uploaded file's key. */
  idOfKey: Map<string, string>;
  stored: number;
  passages: number;
  seconds: number;
}

/** Every document of the collection stored through the service's upload path, until all are indexed. */
async function ingestCollection(core: Core, collection: IrCollection): Promise<Ingested> {
  const owner = core.desktopCaller();
  const dataset = (await core.service.invoke('datasets.create', { name: collection.name }, owner)) as { id: string; kb_id: string };
  // Keys are positions: document ids may hold characters a key may not.
  const idOfKey = new Map<string, string>();
  const started = performance.now();
  let stored = 0;
  for (const doc of collection.documents) {
    const text = [doc.title, doc.text].filter((s) => s !== '').join('\n\n');
    if (text === '') continue; // Cranfield has a few records with neither title nor text
    const key = `doc-${stored++}.txt`;
    idOfKey.set(key, doc.id);
    await core.service.invoke('artifacts.upload', { kb_id: dataset.kb_id, files: formFiles({ filename: key, mime_type: 'text/plain', bytes: text }) }, owner);
  }
  await core.runtime.ingest.idle();
  const seconds = (performance.now() - started) / 1000;
  const passages = core.repos.artifacts.inKb(dataset.kb_id).reduce((n, a) => n + (a.chunk_count ?? 0), 0);
  return { kbId: dataset.kb_id, datasetId: dataset.id, idOfKey, stored, passages, seconds };
}

/** One ranking's scores over every query of the collection, and its latency. */
async function measureRanking(collection: IrCollection, idOfKey: Map<string, string>, ranking: RelevanceRow['ranking'], rank: (query: string) => Promise<string[]> | string[]): Promise<RelevanceRow> {
  const rankings = new Map<string, string[]>();
  const samples: number[] = [];
  for (const [id, text] of collection.queries) {
    const started = performance.now();
    const keys = await rank(text);
    samples.push(performance.now() - started);
    const docs = keys.flatMap((key) => (idOfKey.has(key) ? [idOfKey.get(key) as string] : []));
    rankings.set(id, [...new Set(docs)].slice(0, TOP));
  }
  const s = summarize(samples);
  return { ranking, ...meanScores(rankings, collection.qrels, TOP), p50_ms: s.p50, p95_ms: s.p95 };
}

/** Parley's search in `mode` (`search.query`, the operation behind POST /search): the files' keys, best first. */
async function searchKeys(core: Core, datasetId: string, query: string, mode: 'keyword' | 'hybrid'): Promise<string[]> {
  const result = (await core.service.invoke('search.query', { query, dataset_ids: [datasetId], limit: PASSAGES, mode }, core.desktopCaller())) as {
    data: Array<{ artifact_key: string }>;
    mode: string;
  };
  if (result.mode !== mode) throw new Error(`search.query answered in ${result.mode} mode, not ${mode}`);
  return result.data.map((hit) => hit.artifact_key);
}

/**
 * Parley's keyword search with the chunks on PostgreSQL (main/db/postgres/chunks/fulltext.ts): the
 * same upload path into a core on a fresh database of `PARLEY_BENCH_POSTGRES_URL`'s server (see
 * ./postgres.ts), dropped after.
 */
async function keywordOnPostgres(server: BenchPostgres, collection: IrCollection): Promise<{ row: RelevanceRow; ingest_s: number }> {
  const { dir: dataDir, remove } = tempDir('parley-relevance-pg-');
  const database = createDatabase(server.url);
  try {
    const core = bootCore({ dataDir, appVersion: 'bench', adminApiKey: TEST_ADMIN_KEY, databaseUrl: database.url });
    try {
      const ingested = await ingestCollection(core, collection);
      const row = await measureRanking(collection, ingested.idOfKey, 'keyword on PostgreSQL', (query) => searchKeys(core, ingested.datasetId, query, 'keyword'));
      return { row, ingest_s: ingested.seconds };
    } finally {
      await core.close();
    }
  } finally {
    dropDatabase(server.url, database.name);
    remove();
  }
}

export async function runRelevanceBench(dir = process.env.PARLEY_IR_COLLECTION ?? DEFAULT_COLLECTION_DIR): Promise<RelevanceResult | { skipped: string }> {
  if (!existsSync(dir)) return { skipped: `no test collection at ${dir} (see test/bench/data/README.md)` };
  const collection: IrCollection | undefined = loadCollection(dir);
  if (!collection) return { skipped: `${dir} holds no Cranfield, Medline, CISI or BEIR files (see test/bench/data/README.md)` };

  const { dir: dataDir, remove } = tempDir('parley-relevance-');
  const core = bootCore({ dataDir, appVersion: 'bench', adminApiKey: TEST_ADMIN_KEY });
  let result: RelevanceResult;
  try {
    const owner = core.desktopCaller();
    const { kbId, datasetId, idOfKey, stored, passages, seconds: ingestSeconds } = await ingestCollection(core, collection);

    const embedStarted = performance.now();
    const hybrid = process.env.PARLEY_BENCH_RELEVANCE_HYBRID !== '0';
    const embedding = !hybrid ? 'none' : await configureLocalEmbeddings(core, benchEmbeddingModel());
    const model = core.runtime.embedding();
    if (hybrid && !model) throw new Error('The benchmark embedding model is configured but cannot embed');
    // Choosing the model started embedding the files already there (EmbedQueue); calling the
    // embedder here as well would embed every passage twice.
    if (model) {
      await core.runtime.ingest.idle();
      const { vectors } = (await core.service.invoke('search.embedding', {}, owner)) as { vectors: { embedded: number; total: number } | null };
      if (!vectors || vectors.embedded < vectors.total) throw new Error(`embedding stopped at ${JSON.stringify(vectors)} passages`);
    }
    const embedSeconds = (performance.now() - embedStarted) / 1000;

    const rows: RelevanceRow[] = [];
    const measure = async (ranking: RelevanceRow['ranking'], rank: (query: string) => Promise<string[]> | string[]) => {
      rows.push(await measureRanking(collection, idOfKey, ranking, rank));
    };
    const keyOf = (id: number) => core.repos.chunks.hit(id)?.artifact_key ?? '';
    await measure('bm25', (query) => bm25Passages(core, kbId, query).map(keyOf));
    await measure('bm25, stop words out', (query) => bm25Passages(core, kbId, query, true).map(keyOf));
    const spaceless = collection.documents.slice(0, 50).some((d) => hasSpacelessScript(d.text));
    const trigram = spaceless ? trigramIndex(core, kbId, PASSAGES) : null;
    if (trigram) await measure('trigram', (query) => trigram.rank(query).map(keyOf));
    for (const mode of hybrid ? (['keyword', 'hybrid'] as const) : (['keyword'] as const)) {
      await measure(mode, (query) => searchKeys(core, datasetId, query, mode));
    }
    result = { collection: collection.name, documents: stored, passages, embedding, ingest_s: ingestSeconds, embed_s: embedSeconds, trigram_index_s: trigram?.seconds ?? null, postgres_ingest_s: null, rows };
  } finally {
    await core.close();
    remove();
  }
  const postgres = await withBenchPostgres((server) => (server ? keywordOnPostgres(server, collection) : Promise.resolve(undefined)));
  if (postgres) {
    result.rows.push(postgres.row);
    result.postgres_ingest_s = postgres.ingest_s;
  }
  return result;
}

const fixed = (n: number) => n.toFixed(3);

/**
 * The relevance table: each ranking's figures, and for Parley's two the goal next to them —
 * keyword ≥ baseline nDCG@10; hybrid ≥ baseline + 10% nDCG@10 (a goal for a real embedding model);
 * keyword on PostgreSQL ≥ 95% of the baseline's (issue #33).
 * The baseline is plain bm25, or the trigram index for a collection in a script written without spaces.
 */
export function relevanceTable(result: RelevanceResult): Array<Record<string, string | number>> {
  const baseline: RelevanceRow['ranking'] = result.trigram_index_s === null ? 'bm25' : 'trigram';
  const base = result.rows.find((r) => r.ranking === baseline)?.ndcg_at_10 ?? Number.NaN;
  const goal = { bm25: undefined, 'bm25, stop words out': undefined, trigram: undefined, keyword: base, hybrid: base * 1.1, 'keyword on PostgreSQL': base * 0.95 } as const;
  return result.rows.map((r) => {
    const target = goal[r.ranking];
    return {
      ranking: r.ranking === 'hybrid' ? `hybrid (${result.embedding})` : r.ranking,
      ndcg_at_10: fixed(r.ndcg_at_10),
      recall_at_10: fixed(r.recall_at_10),
      mrr_at_10: fixed(r.mrr_at_10),
      queries: r.queries,
      p50_ms: r.p50_ms.toFixed(2),
      target: r.ranking === baseline ? 'baseline' : target === undefined ? '' : `nDCG@10 ≥ ${fixed(target)} (${r.ranking === 'hybrid' ? `${baseline} + 10%` : r.ranking === 'keyword on PostgreSQL' ? `95% of ${baseline}` : baseline})`,
      met: target === undefined ? '' : r.ndcg_at_10 >= target ? 'met' : 'not met',
    };
  });
}

export function relevanceTitle(result: RelevanceResult): string {
  const trigram = result.trigram_index_s === null ? '' : `, trigram index ${result.trigram_index_s.toFixed(1)} s`;
  const postgres = result.postgres_ingest_s === null ? '' : `, ingest on PostgreSQL ${result.postgres_ingest_s.toFixed(0)} s`;
  return `Relevance on ${result.collection} (${result.documents} documents, ${result.passages} passages; ingest ${result.ingest_s.toFixed(0)} s, embedding ${result.embed_s.toFixed(0)} s${trigram}${postgres})`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const dir of process.argv[2] ? [process.argv[2]] : relevanceCollectionDirs()) {
    const result = await runRelevanceBench(dir);
    if ('skipped' in result) process.stdout.write(`\nRelevance: skipped — ${result.skipped}\n`);
    else printRows(relevanceTitle(result), relevanceTable(result));
  }
}
