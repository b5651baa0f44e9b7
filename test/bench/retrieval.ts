/**
 * Retrieval benchmark: keyword search (searchKeyword, top 10) over 100k and 1M generated chunks,
 * shared with the keyword thread as the app searches, and on one thread as before, in turns.
 *
 * Each size gets a database built by the real migrations (WAL) and the
 * real chunks repository (batched inserts, FTS5 kept up to date by the migration's triggers):
 * - a vocabulary of 50 000 words, the most frequent 160 being common English words (stop words
 *   and the like), the rest generated; word frequencies follow Zipf's law;
 * - artifacts of 20 chunks of 120–180 words, spread over 4 knowledge bases; each artifact has 8
 *   topic words (drawn from the less common ranks) that make up ~6% of its words, as real
 *   documents repeat what they are about;
 * - after loading: the FTS5 index is optimised (merged into one segment) and term statistics are
 *   refreshed, as the ingest job does after bulk loads.
 * Then 500 natural-language questions are timed end to end (planning, ranking, snippets, artifact
 * keys): most mix an artifact's topic words with common words, 15% hold common words only (the
 * worst case); most search one knowledge base, some two, some all four. For a sample, the top 10
 * are compared with exhaustive bm25 over all of the question's words (no pruning, no cap): the
 * share of the exhaustive top 10 found (overlap), and how often each finds the artifact the
 * question was made from.
 *
 * Hybrid search is timed per embedding width on the same corpus with hashed bag-of-words vectors
 * and their HNSW graphs, built once and cached too (cachedEmbedded), against sqlite-vec's exact kNN.
 *
 * Generated databases are cached in test-results/bench-cache/ (keyed by generator version, size,
 * width and graph parameters); each run works on a copy.
 * It measures and reports; it asserts nothing (target: p95 ≤ 10 ms at 1M chunks).
 * Run: node --import tsx test/bench/retrieval.ts [sizes…]   (default: 100000 1000000)
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Db } from '../../main/db/connection.js';
import type { SqlDb } from '../../main/db/sql.js';
import { createChunksRepo, type ChunksRepo } from '../../main/search/chunks.js';
import { DEFAULT_ANN } from '../../main/search/vectors/ann-params.js';
import { readGraphMeta } from '../../main/search/vectors/graph-files.js';
import { indexEmbeddings, KeywordThread, questionWords, searchHybrid, searchKeyword } from '../../main/search/index.js';
import type { Chunk } from '../../main/core/knowledge/ingest/types.js';
import { hashedEmbedder } from '../unit/retrieval/hashed-embedder.js';
import { COMMON_ENGLISH, vocabulary, zipf } from './natural-text.js';
import { printRows, prng, summarize } from './stats.js';
import { withBenchPostgres, type BenchPostgres } from './postgres.js';
import { keywordOnPostgres } from './retrieval-postgres.js';

export interface RetrievalBenchRow {
  name: string;
  /** Recall@10 of the vector index against exact kNN (sampled questions). */
  recall_at_10?: number;
  chunks: number;
  p50_ms: number;
  p95_ms: number;
  /** Generating and inserting the chunks, with their keyword index. */
  build_s?: number;
  /** Merging the index into one segment, then refreshing term statistics. */
  optimize_s?: number;
  db_mb?: number;
  /** Share of the exhaustive-bm25 top 10 that the pruned search also returns (sampled questions). */
  overlap_at_10?: number;
  /** Share of topical questions whose source artifact is in the top 10. */
  source_in_top10?: number;
  /** The same over the sampled questions, for the pruned search and for exhaustive bm25. */
  sample_source_in_top10?: number;
  sample_source_in_top10_exhaustive?: number;
  /** On PostgreSQL: the share of SQLite's top 10 for the same questions that it returns too. */
  sqlite_overlap_at_10?: number;
}

const KBS = 4;
const CHUNKS_PER_ARTIFACT = 20;
const ARTIFACTS_PER_TRANSACTION = 250;
const VOCABULARY = 50_000;
const TOPIC_WORDS = 8;
const TOPIC_SHARE = 0.06;
const QUESTIONS = 500;
const WARMUP = 50;

interface Corpus {
  vocab: string[];
  /** Per artifact: its knowledge base (0-based) and topic word ranks. */
  artifacts: Array<{ kb: number; topic: number[] }>;
}

function chunkText(corpus: Corpus, topic: number[], draw: () => number, rand: () => number): string {
  const { vocab } = corpus;
  const length = 120 + Math.floor(rand() * 61);
  const words: string[] = [];
  let inSentence = 0;
  for (let i = 0; i < length; i++) {
    let word = rand() < TOPIC_SHARE ? vocab[topic[Math.floor(rand() * topic.length)]!]! : vocab[draw()]!;
    if (inSentence === 0) word = word[0]!.toUpperCase() + word.slice(1);
    inSentence++;
    if (inSentence > 8 && rand() < 0.12) {
      const comma = rand() < 0.25;
      word += comma ? ',' : '.';
      if (!comma) inSentence = 0;
    }
    words.push(word);
  }
  const text = words.join(' ');
  return /[.,]$/.test(text) ? `${text.slice(0, -1)}.` : `${text}.`;
}

interface GeneratedArtifact {
  index: number;
  kb: number;
  chunks: Chunk[];
}

/** The corpus, artifact by artifact (deterministic); `corpus.artifacts` fills up as it goes. */
function* generate(total: number, corpus: Corpus): Generator<GeneratedArtifact> {
  const rand = prng(20_240_601);
  corpus.vocab = vocabulary(VOCABULARY, rand);
  const draw = zipf(corpus.vocab.length, 1.0, rand);
  const artifacts = Math.ceil(total / CHUNKS_PER_ARTIFACT);
  for (let a = 0; a < artifacts; a++) {
    const kb = a % KBS;
    const topic = Array.from({ length: TOPIC_WORDS }, () => 300 + Math.floor(Math.pow(rand(), 2) * (VOCABULARY - 300)));
    corpus.artifacts.push({ kb, topic });
    const chunks: Chunk[] = [];
    let offset = 0;
    for (let c = 0; c < CHUNKS_PER_ARTIFACT && a * CHUNKS_PER_ARTIFACT + c < total; c++) {
      const text = chunkText(corpus, topic, draw, rand);
      chunks.push({ ord: c, text, location: { start: offset, end: offset + text.length } });
      offset += text.length + 2;
    }
    yield { index: a, kb, chunks };
  }
}

/** Fills a migrated database with the corpus through the chunks repository (SQLite's, or PostgreSQL's: retrieval-postgres.ts). */
export function build(db: SqlDb, chunks: ChunksRepo, total: number): Corpus {
  const corpus: Corpus = { vocab: [], artifacts: [] };
  const now = new Date().toISOString();
  db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run('org_bench', 'Bench', now);
  const dataset = db.prepare('INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const kb = db.prepare('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES (?, ?, ?)');
  for (let k = 0; k < KBS; k++) {
    dataset.run(`ds_bench${k}`, 'org_bench', `Bench ${k}`, now, now);
    kb.run(`kb_bench${k}`, `ds_bench${k}`, now);
  }
  const artifact = db.prepare(
    `INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 0, 0, 'ready', ?, ?)`,
  );
  const source = generate(total, corpus);
  let done = false;
  while (!done) {
    // One transaction per batch of artifacts; each artifact's insert is a savepoint inside it.
    db.transaction(() => {
      for (let n = 0; n < ARTIFACTS_PER_TRANSACTION; n++) {
        const next = source.next();
        if (next.done) {
          done = true;
          return;
        }
        const { index, kb: k, chunks: list } = next.value;
        const id = `art_bench${index}`;
        artifact.run(id, `kb_bench${k}`, `reports/${k}/document-${index}.txt`, `document-${index}.txt`, now, now);
        chunks.replaceForArtifact(id, undefined, list);
      }
    })();
  }
  return corpus;
}

/** The questions the bench asks of a corpus of `total` chunks (regenerates the corpus without storing it). */
export function benchQuestions(total: number, count = QUESTIONS + WARMUP): Question[] {
  const corpus: Corpus = { vocab: [], artifacts: [] };
  for (const _ of generate(total, corpus));
  return questionsOf(corpus, count);
}

const TEMPLATES = [
  'What is the {0} of the {1}?',
  'How does {0} affect {1} and {2}?',
  'Why would the {0} be {1} in {2}?',
  'Which {0} has the most {1}?',
  'Can you tell me about {0} and {1}?',
  'When was the {0} first {1} by the {2}?',
  'Where do {0} and {1} come from?',
  'How is {0} related to the {1} of {2}?',
  'What are the main {0} for {1}?',
  'Is there any {0} between {1} and {2}?',
];

export interface Question {
  text: string;
  kb_ids: string[];
  /** The artifact whose topic words it asks about; none for common-words-only questions. */
  source?: string;
}

function questionsOf(corpus: Corpus, count: number): Question[] {
  const rand = prng(7);
  const { vocab, artifacts } = corpus;
  const common = () => vocab[COMMON_ENGLISH.length + Math.floor(Math.pow(rand(), 2) * 2_000)]!; // ranks ~160–2160
  const out: Question[] = [];
  for (let i = 0; i < count; i++) {
    const a = Math.floor(rand() * artifacts.length);
    const { kb, topic } = artifacts[a]!;
    const topical = () => vocab[topic[Math.floor(rand() * topic.length)]!]!;
    const roll = rand();
    const words =
      roll < 0.5 ? [topical(), topical(), common()] : roll < 0.7 ? [topical(), common(), common()] : roll < 0.85 ? [topical(), topical(), topical()] : [common(), common(), common()];
    if (roll < 0.85) words.sort(() => rand() - 0.5);
    const template = TEMPLATES[Math.floor(rand() * TEMPLATES.length)]!;
    const text = template.replace(/\{(\d)\}/g, (_, n: string) => words[Number(n)] ?? words[0]!);
    const scope = rand();
    const kbs = scope < 0.7 ? [kb] : scope < 0.9 ? [kb, (kb + 1) % KBS] : Array.from({ length: KBS }, (_, k) => k);
    out.push({ text, kb_ids: kbs.map((k) => `kb_bench${k}`), ...(roll < 0.85 ? { source: `art_bench${a}` } : {}) });
  }
  return out;
}

/** Exhaustive bm25 over every word of the question (no pruning, no cap): the reference ranking. */
function exhaustiveTop(db: Db, chunks: ChunksRepo, q: Question, limit: number): number[] {
  const words = questionWords(q.text).words;
  if (words.length === 0) return [];
  const match = words.map((w) => `"${w}"`).join(' OR ');
  const rank = db.prepare<[string, bigint, bigint, number], { id: number; s: number }>(
    'SELECT rowid AS id, bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY s LIMIT ?',
  );
  return chunks
    .kbRanges(q.kb_ids)
    .flatMap((r) => rank.all(match, BigInt(r.lo), BigInt(r.hi), limit))
    .sort((a, b) => a.s - b.s)
    .slice(0, limit)
    .map((r) => r.id);
}

function time<T>(fn: () => T): [T, number] {
  const started = performance.now();
  const value = fn();
  return [value, performance.now() - started];
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

const RECALL_SAMPLE = 100;

/**
 * The generated corpus of `size` chunks with every chunk's hashed embedding of `dimensions` stored
 * and its HNSW graphs saved beside it (`<file>.vectors/`), from the cache when there. Embedding 1M
 * chunks and growing their graphs takes most of an hour on these 2 cores, and what the bench times
 * is search, so the build is done once per corpus, width and graph parameters, and its time is
 * kept with it (`<file>.json`) and reported with every later run. Built under `.partial` names and
 * renamed only once the graphs are saved, so an interrupted build is never reused.
 */
export async function cachedEmbedded(
  cacheDir: string,
  corpusFile: string,
  size: number,
  dimensions: number,
  log: (line: string) => void,
): Promise<{ file: string; indexMs: number; embedded: number }> {
  const params = `m${DEFAULT_ANN.m}-efc${DEFAULT_ANN.efConstruction}`;
  const file = join(cacheDir, `retrieval-g${GENERATOR_VERSION}-${size}-hashed${dimensions}-${params}.db`);
  const facts = `${file}.json`;
  if (existsSync(file) && existsSync(facts)) {
    log(`  ${size.toLocaleString('en')} chunks with ${dimensions}-d vectors and their graphs from ${file}`);
    return { file, ...(JSON.parse(readFileSync(facts, 'utf8')) as { indexMs: number; embedded: number }) };
  }
  const partial = `${file}.partial`;
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}.vectors`]) rmSync(f, { recursive: true, force: true });
  copyFileSync(corpusFile, partial);
  const db = openDatabase(partial);
  try {
    // Stopping saves every graph, however long that takes (the app bounds it at shutdown).
    const chunks = createChunksRepo(db, undefined, { shutdownSaveMs: 2 ** 31 - 1 });
    const embed = hashedEmbedder(dimensions);
    const started = performance.now();
    const embedded = await indexEmbeddings({ chunks }, embed, { model: `hashed-${dimensions}`, batchSize: 512, log });
    await chunks.stopVectorWork();
    const indexMs = performance.now() - started;
    for (const { slot, version } of db.prepare<[], { slot: number; version: number }>('SELECT slot, version FROM chunk_vector_slots').all()) {
      const saved = readGraphMeta(`${partial}.vectors`, slot);
      if (saved?.version !== version || !existsSync(saved.file)) throw new Error(`the graph of slot ${slot} was not saved at its last version (${saved?.version ?? 'none'} of ${version})`);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    rmSync(`${file}.vectors`, { recursive: true, force: true });
    renameSync(`${partial}.vectors`, `${file}.vectors`);
    writeFileSync(facts, JSON.stringify({ indexMs, embedded }));
    renameSync(partial, file);
    log(`  embedded ${embedded.toLocaleString('en')} chunks (hashed, ${dimensions}-d) and built their graphs in ${(indexMs / 1000).toFixed(1)} s`);
    return { file, indexMs, embedded };
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}

/**
 * Hybrid top 10 through the HNSW index at one embedding width, on a copy of the cached embedded
 * corpus (see cachedEmbedded) once its saved graphs are loaded: the timed questions end to end,
 * then recall@10 of the index against sqlite-vec's exact kNN on a sample, timing that exact kNN
 * too (what hybrid search cost before the index).
 */
async function hybridRows(cacheDir: string, corpusFile: string, timed: Question[], size: number, dimensions: number, log: (line: string) => void): Promise<RetrievalBenchRow[]> {
  const cached = await cachedEmbedded(cacheDir, corpusFile, size, dimensions, log);
  if (cached.embedded === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-hybrid-'));
  const file = join(dir, 'parley.db');
  copyFileSync(cached.file, file);
  cpSync(`${cached.file}.vectors`, `${file}.vectors`, { recursive: true });
  const db = openDatabase(file);
  const chunks = createChunksRepo(db);
  const keywords = new KeywordThread({ file, log });
  try {
    const embed = hashedEmbedder(dimensions);
    const loading = performance.now();
    chunks.warmVectorGraphs();
    await chunks.vectorGraphsSettled();
    const slots = [...new Set(timed.flatMap((q) => chunks.kbRanges(q.kb_ids).map((r) => r.slot)))];
    const exact = slots.filter((slot) => chunks.vectorSearchPath(slot) !== 'graph');
    if (exact.length > 0) throw new Error(`the saved graphs of slots ${exact.join(', ')} did not load: the bench would time exact kNN`);
    log(`  loaded the saved graphs in ${((performance.now() - loading) / 1000).toFixed(1)} s`);
    // As the app searches: the keyword half in its thread (started here, as the app's first hybrid search starts it).
    if (!(await keywords.start())) throw new Error('the keyword search thread did not start: the bench would time both halves on one thread');
    // Timed in turns, question by question (which goes first alternates), so that the machine's drift between windows falls on both alike.
    const search = (q: Question, options: { keywords?: KeywordThread }) => searchHybrid({ chunks }, { kb_ids: q.kb_ids, text: q.text, limit: 10 }, embed, { log, ...options });
    for (const q of timed.slice(0, 20)) for (const options of [{ keywords }, {}]) await search(q, options);
    const served = keywords.served;
    const hybrid: number[] = [];
    const oneThread: number[] = [];
    for (const [i, q] of timed.entries()) {
      for (const threaded of i % 2 === 0 ? [true, false] : [false, true]) {
        const t0 = performance.now();
        await search(q, threaded ? { keywords } : {});
        (threaded ? hybrid : oneThread).push(performance.now() - t0);
      }
    }
    if (keywords.served - served !== timed.length) throw new Error('some keyword halves ran without the keyword thread: the bench timed a mix');
    let found = 0;
    let reference = 0;
    const exactMs: number[] = [];
    const annMs: number[] = [];
    for (const q of timed.slice(0, RECALL_SAMPLE)) {
      const vector = Float32Array.from((await embed([q.text]))[0]!);
      const ranges = chunks.kbRanges(q.kb_ids);
      // knn merges the knowledge bases itself, nearest first; the exact reference is merged here.
      const [approx, a] = time(() => chunks.knn(vector, ranges.map((r) => r.slot), 10).map((n) => n.id));
      const [exactTop, e] = time(() =>
        ranges
          .flatMap((r) => chunks.knnExact(vector, r.slot, 10))
          .sort((x, y) => x.distance - y.distance)
          .slice(0, 10)
          .map((n) => n.id),
      );
      annMs.push(a);
      exactMs.push(e);
      const got = new Set(approx);
      found += exactTop.filter((id) => got.has(id)).length;
      reference += exactTop.length;
    }
    const h = summarize(hybrid);
    const h1 = summarize(oneThread);
    const x = summarize(exactMs);
    const v = summarize(annMs);
    return [
      { name: `hybrid top-10 (HNSW, ${dimensions}-d)`, chunks: size, p50_ms: round(h.p50), p95_ms: round(h.p95), build_s: round(cached.indexMs / 1000, 1), recall_at_10: round(reference === 0 ? 1 : found / reference, 3) },
      { name: `hybrid top-10, both halves on one thread (${dimensions}-d, before)`, chunks: size, p50_ms: round(h1.p50), p95_ms: round(h1.p95) },
      { name: `vector top-10 alone, HNSW (${dimensions}-d)`, chunks: size, p50_ms: round(v.p50), p95_ms: round(v.p95) },
      { name: `vector top-10 alone, exact kNN sqlite-vec (${dimensions}-d, before)`, chunks: size, p50_ms: round(x.p50), p95_ms: round(x.p95) },
    ];
  } finally {
    await keywords.close();
    await chunks.stopVectorWork();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same questions while the newest file of each knowledge base is being processed: its chunks
 * are in the index but must not be found, so every search leaves their id runs out inside its
 * query (one probe of `chunk_unready` per match it visits). The newest chunks are the first ones a
 * capped query visits, so this is the filter's worst place. The files are made ready again after.
 */
function keywordWhileProcessing(db: Db, chunks: ChunksRepo, timed: Question[], size: number): RetrievalBenchRow {
  const newest = db.prepare<[], { id: string }>('SELECT (SELECT id FROM artifacts a WHERE a.kb_id = k.kb_id ORDER BY seq DESC LIMIT 1) AS id FROM chunk_kbs k').all();
  const setStatus = db.prepare<[string, string]>('UPDATE artifacts SET status = ? WHERE id = ?');
  for (const { id } of newest) setStatus.run('processing', id);
  try {
    const unready = new Set(newest.map((a) => a.id));
    const ms: number[] = [];
    for (const q of timed) {
      const [hits, took] = time(() => searchKeyword({ chunks }, { kb_ids: q.kb_ids, text: q.text, limit: 10 }));
      if (hits.some((h) => unready.has(h.artifact_id))) throw new Error('a file being processed was found');
      ms.push(took);
    }
    const s = summarize(ms);
    return { name: 'keyword top-10, all questions, the newest file of each knowledge base processing', chunks: size, p50_ms: round(s.p50), p95_ms: round(s.p95) };
  } finally {
    for (const { id } of newest) setStatus.run('ready', id);
  }
}

export interface RetrievalBenchOptions {
  sizes?: number[];
  /** Questions compared with exhaustive bm25, per size (it is slow: ~0.7 µs per matching chunk). */
  overlapSample?: (size: number) => number;
  /** Embedding widths hybrid search is timed at (hashed embeddings). Default 384 and 1,536. */
  dimensions?: number[];
  /** Timed questions per size (default all 500): a test of the cache needs the path, not the figures. */
  questions?: number;
  /** Time hybrid search at sizes up to this, for up to 512 dimensions. Default 1 000 000. */
  hybridUpTo?: number;
  /** …and for wider embeddings (memory: 1M × 1,536 floats is 6 GB). Default 100 000. */
  hybridWideUpTo?: number;
  log?: (line: string) => void;
  /** Where generated databases are cached, keyed by generator version and size. Default test-results/bench-cache. */
  cacheDir?: string;
  /** Times keyword search on this PostgreSQL server too (./postgres.ts, ./retrieval-postgres.ts). */
  postgres?: BenchPostgres;
}

/** Bump when the generated corpus changes: cached databases of another version are never reused. */
const GENERATOR_VERSION = 1;

/**
 * The generated keyword database of `size` chunks (optimised, term statistics refreshed) and its
 * questions, from the cache when there; built into a `.partial` file and renamed only when
 * complete, so an interrupted build is never reused.
 */
export function cachedCorpus(cacheDir: string, size: number, log: (line: string) => void): { file: string; questions: Question[]; buildMs?: number; optimizeMs?: number } {
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, `retrieval-g${GENERATOR_VERSION}-${size}.db`);
  const questionsFile = `${file}.questions.json`;
  if (existsSync(file) && existsSync(questionsFile)) {
    log(`retrieval bench: ${size.toLocaleString('en')} chunks from ${file}`);
    return { file, questions: JSON.parse(readFileSync(questionsFile, 'utf8')) as Question[] };
  }
  const partial = `${file}.partial`;
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(partial);
  try {
    const chunks = createChunksRepo(db);
    log(`retrieval bench: building ${size.toLocaleString('en')} chunks…`);
    const [built, buildMs] = time(() => build(db, chunks, size));
    const [, optimizeMs] = time(() => {
      chunks.optimize();
      chunks.refreshTermStats();
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const questions = questionsOf(built, QUESTIONS + WARMUP);
    writeFileSync(questionsFile, JSON.stringify(questions));
    renameSync(partial, file);
    log(`  built in ${(buildMs / 1000).toFixed(1)} s, optimised + term statistics in ${(optimizeMs / 1000).toFixed(1)} s`);
    return { file, questions, buildMs, optimizeMs };
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}

export async function runRetrievalBench(options: RetrievalBenchOptions = {}): Promise<RetrievalBenchRow[]> {
  const sizes = options.sizes ?? [100_000, 1_000_000];
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const overlapSample = options.overlapSample ?? ((size: number) => (size <= 100_000 ? 200 : 100));
  const cacheDir = options.cacheDir ?? join('test-results', 'bench-cache');
  const rows: RetrievalBenchRow[] = [];
  for (const size of sizes) {
    const cached = cachedCorpus(cacheDir, size, log);
    // Each run works on a copy: the keyword part marks files as processing and back.
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-retrieval-'));
    const file = join(dir, 'parley.db');
    copyFileSync(cached.file, file);
    const db = openDatabase(file);
    const buildMs = cached.buildMs;
    const optimizeMs = cached.optimizeMs;
    try {
      const chunks = createChunksRepo(db);
      const dbMb = statSync(file).size / 1e6;
      const qs = cached.questions;
      // As the app searches: shared with the keyword thread. Timed in turns with the same search on
      // one thread (before), question by question, which goes first alternating.
      const keywords = new KeywordThread({ file, log });
      if (!(await keywords.start())) throw new Error('the keyword search thread did not start: the bench would time one thread only');
      const search = (q: Question, threaded: boolean) => searchKeyword({ chunks }, { kb_ids: q.kb_ids, text: q.text, limit: 10 }, threaded ? { keywords } : {});
      for (const q of qs.slice(0, WARMUP)) for (const threaded of [true, false]) search(q, threaded);
      const timed = qs.slice(WARMUP, options.questions === undefined ? undefined : WARMUP + options.questions);
      const all: number[] = [];
      const oneThread: number[] = [];
      const topical: number[] = [];
      const commonOnly: number[] = [];
      const results: number[][] = [];
      let found = 0;
      const served = keywords.served;
      const queries = { ...keywords.queries };
      for (const [i, q] of timed.entries()) {
        for (const threaded of i % 2 === 0 ? [true, false] : [false, true]) {
          const [hits, ms] = time(() => search(q, threaded));
          if (!threaded) {
            oneThread.push(ms);
            continue;
          }
          all.push(ms);
          (q.source ? topical : commonOnly).push(ms);
          results.push(hits.map((h) => h.chunk_id));
          if (q.source && hits.some((h) => h.artifact_id === q.source)) found++;
        }
      }
      await keywords.close();
      if (keywords.served - served !== timed.length) throw new Error('some searches ran without the keyword thread: the bench timed a mix');
      const byWorker = keywords.queries.worker - queries.worker;
      log(`  keyword at ${size.toLocaleString('en')}: the thread ran ${byWorker} of ${byWorker + keywords.queries.caller - queries.caller} queries`);
      const sample = Math.min(timed.length, overlapSample(size));
      let overlap = 0;
      let reference = 0;
      let sampled = 0;
      let sampleFound = 0;
      let exhaustiveFound = 0;
      const artifactOf = db.prepare<[number], { artifact_id: string }>('SELECT artifact_id FROM chunks WHERE id = ?');
      for (let i = 0; i < sample; i++) {
        const q = timed[i]!;
        const exact = exhaustiveTop(db, chunks, q, 10);
        const got = new Set(results[i]);
        overlap += exact.filter((id) => got.has(id)).length;
        reference += exact.length;
        if (!q.source) continue;
        sampled++;
        if ([...got].some((id) => artifactOf.get(id)?.artifact_id === q.source)) sampleFound++;
        if (exact.some((id) => artifactOf.get(id)?.artifact_id === q.source)) exhaustiveFound++;
      }
      const s = summarize(all);
      const one = summarize(oneThread);
      const t = summarize(topical);
      const c = summarize(commonOnly);
      rows.push({
        name: 'keyword top-10, all questions',
        chunks: size,
        p50_ms: round(s.p50),
        p95_ms: round(s.p95),
        ...(buildMs === undefined ? {} : { build_s: round(buildMs / 1000, 1) }),
        ...(optimizeMs === undefined ? {} : { optimize_s: round(optimizeMs / 1000, 1) }),
        db_mb: Math.round(dbMb),
        overlap_at_10: round(reference === 0 ? 1 : overlap / reference, 3),
        source_in_top10: round(found / Math.max(1, topical.length), 3),
        sample_source_in_top10: round(sampleFound / Math.max(1, sampled), 3),
        sample_source_in_top10_exhaustive: round(exhaustiveFound / Math.max(1, sampled), 3),
      });
      rows.push({ name: 'keyword top-10, all questions, on one thread (before)', chunks: size, p50_ms: round(one.p50), p95_ms: round(one.p95) });
      rows.push({ name: 'keyword top-10, topical questions', chunks: size, p50_ms: round(t.p50), p95_ms: round(t.p95) });
      rows.push({ name: 'keyword top-10, common words only', chunks: size, p50_ms: round(c.p50), p95_ms: round(c.p95) });
      rows.push(keywordWhileProcessing(db, chunks, timed, size));
      if (options.postgres) {
        const { postgres } = options;
        const name = `parley_bench_retrieval_g${GENERATOR_VERSION}_${size}`;
        const row = keywordOnPostgres({ server: postgres, name, size, build: (pg, repo) => void build(pg, repo, size), warmup: qs.slice(0, WARMUP), timed, sqliteTops: results, log });
        log(`  ${JSON.stringify(row)}`);
        rows.push(row);
      }

      for (const dimensions of options.dimensions ?? [384, 1_536]) {
        if (size > (dimensions > 512 ? (options.hybridWideUpTo ?? 100_000) : (options.hybridUpTo ?? 1_000_000))) continue;
        const hybrid = await hybridRows(cacheDir, cached.file, timed, size, dimensions, log);
        // Said as they come: a 1M-chunk run takes long, and a figure should survive an interrupted one.
        for (const row of hybrid) log(`  ${JSON.stringify(row)}`);
        rows.push(...hybrid);
      }
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/**
 * The vector widths asked for by `PARLEY_BENCH_DIMENSIONS=384,1536` (empty: keyword only), or
 * undefined (both). Read by this file's command line and by `npm run bench`: a 100k × 1,536-d
 * embedded corpus takes over an hour to build here the first time.
 */
export function benchDimensions(): number[] | undefined {
  const dims = process.env.PARLEY_BENCH_DIMENSIONS;
  return dims === undefined ? undefined : dims.split(',').filter(Boolean).map(Number);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const dimensions = benchDimensions();
  withBenchPostgres((postgres) => runRetrievalBench({ ...(sizes.length > 0 ? { sizes } : {}), ...(dimensions ? { dimensions } : {}), ...(postgres ? { postgres } : {}) })).then(
    (rows) => {
      printRows(
        'Retrieval (top 10; target p95 ≤ 10 ms at 1M chunks)',
        rows.map((r) => ({
          benchmark: r.name,
          chunks: r.chunks.toLocaleString('en'),
          p50_ms: r.p50_ms,
          p95_ms: r.p95_ms,
          build_s: r.build_s ?? '',
          optimize_s: r.optimize_s ?? '',
          db_mb: r.db_mb ?? '',
          recall_at_10: r.recall_at_10 ?? '',
          overlap_at_10: r.overlap_at_10 ?? '',
          sqlite_overlap_at_10: r.sqlite_overlap_at_10 ?? '',
          source_in_top10: r.source_in_top10 ?? '',
          sample_pruned_vs_exhaustive: r.sample_source_in_top10 === undefined ? '' : `${r.sample_source_in_top10} vs ${r.sample_source_in_top10_exhaustive}`,
        })),
      );
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
