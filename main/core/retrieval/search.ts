/**
 * Retrieval over the chunks of some knowledge bases: FTS5 keyword ranking (bm25), plus vectors
 * (sqlite-vec) when an embedding model is configured, fused by reciprocal rank.
 *
 * Why keyword search stays fast at a million chunks: FTS5's bm25 costs about 0.7 µs for every
 * chunk that matches (it scores them all before keeping the best), plus about 30 ns for every
 * chunk holding a ranked term (it counts them for the term's weight, the IDF). A question's
 * common words would each cost tens of milliseconds. So a question is planned first:
 *
 * 1. words are lowercased and split as the index splits them; stop words go; each remaining
 *    word is stemmed by FTS5's own tokenizer and looked up in the term statistics (document
 *    frequency); words the index has never seen go too;
 * 2. the rarest terms *select* candidates (OR), while the chunks they match stay within a
 *    scoring budget (estimated from document frequencies and the share of the corpus in the
 *    knowledge bases searched);
 * 3. the next terms, while their IDF counting stays within its budget, *boost*: a second query
 *    `(selectors) AND (boosters)` scores the candidates that also hold a booster with every term.
 *    Taking, for each chunk, that score where present and the selectors' score otherwise gives
 *    exactly the bm25 of all these terms for every chunk holding a selector, so the top results
 *    are the ones plain bm25 would give among those chunks;
 * 4. terms too common for either budget only *nudge*: among the best few dozen candidates, those
 *    holding such a term (one cheap rowid probe each, no IDF counting) gain the term's bm25 weight
 *    for one occurrence in a chunk of average length, its IDF taken from the term statistics.
 *    Terms in more than about half of the chunks weigh nothing in bm25 and are dropped;
 * 5. when even the rarest term is too common to select with, candidates are the chunks holding
 *    all of the rarest few terms (AND), bm25-ranked if their IDF counting is affordable and
 *    newest first otherwise.
 *
 * Each knowledge base is searched as a rowid range (see migration 050; neighbouring ranges merge
 * into one span), so FTS5 never reads another knowledge base's postings; and at most
 * `maxScoredPerKb` matches are ever scored per span. Document frequencies come from
 * `chunk_terms` (the ingest job should call chunks.refreshTermStatsIfStale() after loading);
 * terms it lacks are counted live once and remembered. Every term reaches FTS5 as a quoted string, so no question can be an FTS5
 * syntax error.
 */
import type { Db } from '../../db/connection.js';
import { createChunksRepo, type ChunksRepo, type KbRange } from '../../db/repositories/chunks.js';
import type { ChunkLocation } from '../ingest/types.js';
import { STOP_WORDS } from './stop-words.js';
import type { SearchHit, SearchQuery } from './types.js';
import { loadVectorExtension, type RetrievalLog } from './vector-extension.js';

/** A database handle, or repositories that include the chunks repository. */
export type RetrievalSource = Db | { db: Db; chunks: ChunksRepo };

/** An OpenAI-compatible embeddings call: one vector per text, in order. */
export type Embedder = (texts: string[]) => Promise<number[][]>;

export interface KeywordOptions {
  /** About how many matches bm25 may score per search, for the selecting terms. Default 4000. */
  scoreBudget?: number;
  /** How many postings bm25 may count to weigh terms, all queries of a search together. Default 60 000. */
  idfBudget?: number;
  /** Hard cap on the matches scored per knowledge base; beyond it, the newest. Default 10 000. */
  maxScoredPerKb?: number;
  /** At most this many terms select and boost. Default 12. */
  maxTerms?: number;
  /** How many of the best candidates (per query span) the nudging terms are checked in. Default 40. */
  nudgeDepth?: number;
  /** At most this many nudging terms. Default 4. */
  maxNudgeTerms?: number;
  /** Longest snippet, in words. Default 32. */
  snippetTokens?: number;
}

export interface HybridOptions extends KeywordOptions {
  /** How many candidates each ranking (keyword, vector) contributes to the fusion. Default max(limit × 3, 30). */
  candidates?: number;
  /** Reciprocal-rank-fusion constant. Default 60. */
  rrfK?: number;
  log?: RetrievalLog;
}

export interface PlannedTerm {
  word: string;
  /** The index's terms for the word (one, nearly always). */
  stems: string[];
  /** Chunks holding it (for several stems: the rarest one's). */
  df: number;
  /** The word as an FTS5 string: quoted, never syntax. */
  fts: string;
}

export interface KeywordPlan {
  mode: 'none' | 'ranked' | 'conjunctive' | 'unranked';
  /** Terms whose matches are the candidates: OR when ranked, AND otherwise. */
  select: PlannedTerm[];
  /** Terms that only add to the scores of the candidates holding them. */
  boost: PlannedTerm[];
  /** Terms too common to afford in bm25: they add their weight to the best candidates holding them. */
  nudge: PlannedTerm[];
  /** Terms that weigh (next to) nothing, or beyond the limits. */
  dropped: PlannedTerm[];
  /** Stop words, and words no chunk holds. */
  ignored: string[];
}

const DEFAULTS: Required<KeywordOptions> = {
  scoreBudget: 4_000,
  idfBudget: 60_000,
  maxScoredPerKb: 10_000,
  maxTerms: 12,
  nudgeDepth: 40,
  maxNudgeTerms: 4,
  snippetTokens: 32,
};
const MAX_LIMIT = 1_000;
const MAX_QUESTION_CHARS = 4_000;
const MAX_WORDS = 64;
const CONJUNCTION_TERMS = 3;
const LEAD_CHARS = 200;
/** Terms weighing less than this in bm25 (in over ~45% of chunks) are not worth a probe. */
const MIN_NUDGE_IDF = 0.2;

const repos = new WeakMap<Db, ChunksRepo>();

function sourceOf(source: RetrievalSource): { db: Db; chunks: ChunksRepo } {
  if ('chunks' in source) return source;
  let chunks = repos.get(source);
  if (!chunks) {
    chunks = createChunksRepo(source);
    repos.set(source, chunks);
  }
  return { db: source, chunks };
}

/** The question's words as the index splits them (letters, digits, marks), lowercased, stop words out, deduplicated. */
export function questionWords(text: string): { words: string[]; stop: string[] } {
  const words: string[] = [];
  const stop: string[] = [];
  const seen = new Set<string>();
  for (const match of text.slice(0, MAX_QUESTION_CHARS).toLowerCase().matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const word = match[0];
    if (seen.has(word)) continue;
    seen.add(word);
    if (STOP_WORDS.has(word)) stop.push(word);
    else if (words.length < MAX_WORDS) words.push(word);
  }
  return { words, stop };
}

const quote = (word: string) => `"${word.replaceAll('"', '""')}"`;
const or = (terms: readonly PlannedTerm[]) => terms.map((t) => t.fts).join(' OR ');
const and = (terms: readonly PlannedTerm[]) => terms.map((t) => t.fts).join(' AND ');

/** Decides which of the question's terms select, boost, or are dropped (see the top of this file). */
export function planKeyword(chunks: ChunksRepo, text: string, ranges: readonly KbRange[], options: KeywordOptions = {}): KeywordPlan {
  const o = { ...DEFAULTS, ...options };
  const { words, stop } = questionWords(text);
  const plan: KeywordPlan = { mode: 'none', select: [], boost: [], nudge: [], dropped: [], ignored: [...stop] };
  if (words.length === 0 || ranges.length === 0) return plan;

  const stems = chunks.stems(words);
  const terms: PlannedTerm[] = [];
  const seen = new Set<string>();
  words.forEach((word, i) => {
    const s = stems[i] ?? [];
    const key = s.join(' ');
    if (s.length === 0 || seen.has(key)) {
      if (s.length === 0) plan.ignored.push(word);
      return;
    }
    seen.add(key);
    const df = Math.min(...s.map((stem) => chunks.docFreq(stem)));
    if (df === 0) plan.ignored.push(word);
    else terms.push({ word, stems: s, df, fts: quote(word) });
  });
  if (terms.length === 0) return plan;
  terms.sort((a, b) => a.df - b.df || a.word.localeCompare(b.word));

  // The share of all chunks that the searched knowledge bases hold: matches are estimated as df × share.
  const total = Math.max(1, chunks.insertedTotal());
  const share = Math.min(1, ranges.reduce((n, r) => n + r.inserted, 0) / total);
  const queries = ranges.length;

  let scored = 0;
  let selectDf = 0;
  let i = 0;
  for (; i < terms.length && plan.select.length < o.maxTerms; i++) {
    const t = terms[i]!;
    const nextScored = scored + t.df * share;
    // Counted once by the selecting query, and once more by the boosting one, per knowledge base.
    const idf = queries * 2 * (selectDf + t.df);
    if (nextScored > o.scoreBudget || idf > o.idfBudget) break;
    plan.select.push(t);
    scored = nextScored;
    selectDf += t.df;
  }
  const nudgeOrDrop = (t: PlannedTerm) => {
    if (plan.nudge.length < o.maxNudgeTerms && bm25Idf(total, t.df) >= MIN_NUDGE_IDF) plan.nudge.push(t);
    else plan.dropped.push(t);
  };
  if (plan.select.length > 0) {
    plan.mode = 'ranked';
    let boostDf = 0;
    for (; i < terms.length; i++) {
      const t = terms[i]!;
      const idf = queries * (2 * selectDf + boostDf + t.df);
      if (plan.select.length + plan.boost.length < o.maxTerms && idf <= o.idfBudget) {
        plan.boost.push(t);
        boostDf += t.df;
      } else nudgeOrDrop(t);
    }
    return plan;
  }

  // Every term is too common to select with: chunks holding all of the rarest few.
  plan.select = terms.slice(0, CONJUNCTION_TERMS);
  terms.slice(CONJUNCTION_TERMS).forEach(nudgeOrDrop);
  const idf = queries * plan.select.reduce((n, t) => n + t.df, 0);
  plan.mode = idf <= o.idfBudget ? 'conjunctive' : 'unranked';
  return plan;
}

/** FTS5's bm25 IDF: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
export function bm25Idf(chunks: number, df: number): number {
  return Math.max(1e-6, Math.log((chunks - df + 0.5) / (df + 0.5)));
}

interface Scored {
  id: number;
  /** Higher is better. */
  score: number;
}

/** Runs a plan over each query span; the best `limit`, best first. */
function runPlan(chunks: ChunksRepo, plan: KeywordPlan, spans: readonly KbRange[], limit: number, o: Required<KeywordOptions>): Scored[] {
  if (plan.mode === 'none') return [];
  if (plan.mode === 'unranked') {
    const match = and(plan.select);
    const ids = spans.flatMap((r) => chunks.matchIds(match, r.lo, r.hi, limit));
    ids.sort((a, b) => b - a);
    return ids.slice(0, limit).map((id, rank) => ({ id, score: 1 / (rank + 1) }));
  }
  const select = plan.mode === 'ranked' ? or(plan.select) : and(plan.select);
  const boosted = plan.boost.length > 0 ? `(${select}) AND (${or(plan.boost)})` : undefined;
  const depth = plan.nudge.length > 0 ? Math.max(limit, o.nudgeDepth) : limit;
  const total = Math.max(1, chunks.insertedTotal());
  const all: Scored[] = [];
  for (const r of spans) {
    const best = new Map<number, number>();
    for (const hit of chunks.rank(select, r.lo, r.hi, o.maxScoredPerKb, depth)) best.set(hit.id, hit.bm25);
    // With every term: exact for the chunks holding a booster too, so it replaces the selectors' score.
    if (boosted) for (const hit of chunks.rank(boosted, r.lo, r.hi, o.maxScoredPerKb, depth)) best.set(hit.id, hit.bm25);
    if (plan.nudge.length > 0 && best.size > 0) {
      const candidates = [...best.keys()];
      for (const t of plan.nudge) {
        // One occurrence in a chunk of average length weighs exactly the IDF in bm25 (k1 = 1.2, b = 0.75).
        const weight = bm25Idf(total, t.df);
        for (const id of chunks.presentAmong(t.fts, candidates)) best.set(id, (best.get(id) ?? 0) - weight);
      }
    }
    for (const [id, bm25] of best) all.push({ id, score: -bm25 });
  }
  all.sort((a, b) => b.score - a.score || b.id - a.id);
  return all.slice(0, limit);
}

function clampLimit(limit: number): number {
  return Number.isFinite(limit) ? Math.max(0, Math.min(MAX_LIMIT, Math.floor(limit))) : 0;
}

function lead(text: string): string {
  if (text.length <= LEAD_CHARS) return text;
  const cut = text.lastIndexOf(' ', LEAD_CHARS);
  return `${text.slice(0, cut > LEAD_CHARS / 2 ? cut : LEAD_CHARS)}…`;
}

function parseLocation(json: string): ChunkLocation {
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as Partial<ChunkLocation>;
      return { ...v, start: typeof v.start === 'number' ? v.start : 0, end: typeof v.end === 'number' ? v.end : 0 };
    }
  } catch {
    // fall through: a location is informative, never worth failing a search
  }
  return { start: 0, end: 0 };
}

/**
 * The window of at most `maxTokens` words with the most of the question's terms (then the most
 * occurrences, then the earliest), cut at word boundaries with ellipses. A word counts as a term
 * when it is the question's word or starts with the term's stem: close enough to what FTS5
 * matched, and far cheaper than asking FTS5 (which would seek every term's postings again).
 */
export function snippetOf(text: string, terms: ReadonlyArray<Pick<PlannedTerm, 'word' | 'stems'>>, maxTokens: number): string {
  const spans: Array<{ start: number; end: number; term: number }> = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const lower = m[0].toLowerCase();
    const term = terms.findIndex((t) => t.word === lower || t.stems.some((stem) => (stem.length >= 3 ? lower.startsWith(stem) : lower === stem)));
    spans.push({ start: m.index, end: m.index + m[0].length, term });
  }
  if (spans.length === 0) return lead(text);
  const size = Math.max(1, Math.min(maxTokens, spans.length));
  let best = -1;
  let bestDistinct = 0;
  let bestCount = 0;
  const counts = new Map<number, number>();
  let count = 0;
  for (let i = 0; i < spans.length; i++) {
    const entering = spans[i]!.term;
    if (entering >= 0) {
      counts.set(entering, (counts.get(entering) ?? 0) + 1);
      count++;
    }
    if (i >= size) {
      const leaving = spans[i - size]!.term;
      if (leaving >= 0) {
        const n = (counts.get(leaving) ?? 1) - 1;
        if (n === 0) counts.delete(leaving);
        else counts.set(leaving, n);
        count--;
      }
    }
    if (i >= size - 1 && (counts.size > bestDistinct || (counts.size === bestDistinct && count > bestCount))) {
      best = i - size + 1;
      bestDistinct = counts.size;
      bestCount = count;
    }
  }
  if (bestDistinct === 0) return lead(text);
  // Start the window a little before the first term when the window would otherwise end early.
  const first = spans.findIndex((sp, i) => i >= best && sp.term >= 0);
  const start = Math.max(0, Math.min(best, first - 2, spans.length - size));
  const end = Math.min(spans.length, start + size) - 1;
  const from = start === 0 ? 0 : spans[start]!.start;
  const to = end === spans.length - 1 ? text.length : spans[end]!.end;
  return `${start === 0 ? '' : '…'}${text.slice(from, to).trim()}${end === spans.length - 1 ? '' : '…'}`;
}

/** Chunk rows, artifact keys and snippets for ranked ids; ids whose chunk is gone are skipped. */
function hydrate(chunks: ChunksRepo, ranked: readonly Scored[], terms: readonly PlannedTerm[], snippetTokens: number, limit: number): SearchHit[] {
  const tokens = Math.max(1, Math.min(200, Math.floor(snippetTokens)));
  const hits: SearchHit[] = [];
  for (const { id, score } of ranked) {
    if (hits.length >= limit) break;
    const row = chunks.hit(id);
    if (!row) continue;
    hits.push({
      chunk_id: row.id,
      kb_id: row.kb_id,
      artifact_id: row.artifact_id,
      artifact_key: row.artifact_key,
      text: row.text,
      snippet: snippetOf(row.text, terms, tokens),
      location: parseLocation(row.location),
      score,
    });
  }
  return hits;
}

/** The terms a snippet should show: every term the plan weighs. */
function snippetTerms(plan: KeywordPlan): PlannedTerm[] {
  return [...plan.select, ...plan.boost, ...plan.nudge];
}

/**
 * The id spans to query for these knowledge bases: neighbouring ranges merge when no other
 * knowledge base holds chunks between them, so searching several knowledge bases often costs one
 * query (one IDF count per term) instead of one per knowledge base, without reading any other's
 * postings.
 */
export function querySpans(chunks: ChunksRepo, ranges: readonly KbRange[]): KbRange[] {
  if (ranges.length < 2) return [...ranges];
  const searched = new Set(ranges.map((r) => r.slot));
  const others = chunks
    .allKbRanges()
    .filter((r) => !searched.has(r.slot) && r.inserted > 0)
    .map((r) => r.slot);
  const spans: KbRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.slot - b.slot)) {
    const last = spans[spans.length - 1];
    if (last && !others.some((slot) => slot > last.slot && slot < r.slot)) {
      spans[spans.length - 1] = { ...last, kb_id: `${last.kb_id},${r.kb_id}`, slot: r.slot, hi: r.hi, inserted: last.inserted + r.inserted };
    } else spans.push({ ...r });
  }
  return spans;
}

function keywordRanking(source: RetrievalSource, query: SearchQuery, limit: number, options: KeywordOptions) {
  const { chunks } = sourceOf(source);
  const o = { ...DEFAULTS, ...options };
  const ranges = chunks.kbRanges(query.kb_ids);
  const spans = querySpans(chunks, ranges);
  const plan = planKeyword(chunks, query.text, spans, o);
  return { chunks, ranges, plan, o, ranked: runPlan(chunks, plan, spans, limit, o) };
}

/**
 * Keyword search: the best `query.limit` chunks of `query.kb_ids` for a natural-language
 * question, by bm25 over its informative terms. A question of stop words only finds nothing.
 */
export function searchKeyword(source: RetrievalSource, query: SearchQuery, options: KeywordOptions = {}): SearchHit[] {
  const limit = clampLimit(query.limit);
  if (limit === 0) return [];
  const { chunks, plan, o, ranked } = keywordRanking(source, query, limit, options);
  return hydrate(chunks, ranked, snippetTerms(plan), o.snippetTokens, limit);
}

/**
 * Reciprocal rank fusion: each list votes 1 / (k + rank) (rank from 1) for its ids; best first.
 * Ties go to the id with the better single rank, then the larger id (the newer chunk).
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly number[]>, k = 60): Array<{ id: number; score: number }> {
  const fused = new Map<number, { score: number; best: number }>();
  for (const list of lists) {
    list.forEach((id, index) => {
      const entry = fused.get(id) ?? { score: 0, best: Number.POSITIVE_INFINITY };
      entry.score += 1 / (k + index + 1);
      entry.best = Math.min(entry.best, index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused]
    .sort(([ia, a], [ib, b]) => b.score - a.score || a.best - b.best || ib - ia)
    .map(([id, { score }]) => ({ id, score }));
}

function toVector(values: readonly number[] | undefined, dimensions?: number): Float32Array | undefined {
  if (!values || values.length === 0 || (dimensions !== undefined && values.length !== dimensions)) return undefined;
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return Float32Array.from(values);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Hybrid search: keyword ranking fused by reciprocal rank with the nearest vectors of the
 * question's embedding, when an embedder is given and the vector index is there (sqlite-vec
 * loaded, chunks embedded with a model). Otherwise — or if embedding the question fails — the
 * keyword ranking alone. Scores are the fused RRF scores (or bm25 when keyword-only).
 */
export async function searchHybrid(source: RetrievalSource, query: SearchQuery, embed?: Embedder, options: HybridOptions = {}): Promise<SearchHit[]> {
  return (await searchRanked(source, query, embed, options)).hits;
}

/** Whether hybrid ranking can run here: an embedder, and chunks embedded into a loaded vector index. */
export function vectorsReady(source: RetrievalSource, log?: RetrievalLog): boolean {
  const { db, chunks } = sourceOf(source);
  return chunks.vectorIndex() !== undefined && loadVectorExtension(db, log) && chunks.hasVectorTable();
}

/** {@link searchHybrid}, saying which ranking it used (keyword when vectors could not take part). */
export async function searchRanked(
  source: RetrievalSource,
  query: SearchQuery,
  embed?: Embedder,
  options: HybridOptions = {},
): Promise<{ hits: SearchHit[]; mode: 'keyword' | 'hybrid' }> {
  const limit = clampLimit(query.limit);
  if (limit === 0) return { hits: [], mode: embed ? 'hybrid' : 'keyword' };
  const { chunks } = sourceOf(source);
  const info = embed ? chunks.vectorIndex() : undefined;
  if (!embed || !info || !vectorsReady(source, options.log)) return { hits: searchKeyword(source, query, options), mode: 'keyword' };
  const log = options.log ?? ((line: string) => console.warn(line));

  const candidates = Math.max(limit, clampLimit(options.candidates ?? Math.max(limit * 3, 30)));
  const keyword = keywordRanking(source, query, candidates, options);
  let nearest: number[] = [];
  let vectorRanked = false;
  if (keyword.ranges.length > 0 && query.text.trim() !== '') {
    try {
      const [values] = await embed([query.text]);
      const vector = toVector(values, info.dimensions);
      if (!vector) {
        log(`[retrieval] the embedding of the question does not match the vector index (${info.model}, ${info.dimensions} dimensions): keyword ranking only`);
      } else {
        vectorRanked = true;
        nearest = keyword.ranges
          .flatMap((r) => chunks.knn(vector, r.slot, candidates))
          .sort((a, b) => a.distance - b.distance || b.id - a.id)
          .slice(0, candidates)
          .map((n) => n.id);
      }
    } catch (error) {
      log(`[retrieval] embedding the question failed (${errorText(error)}): keyword ranking only`);
    }
  }
  // No vector ranking to fuse (the embedding failed or does not fit): the keyword ranking as it is.
  if (!vectorRanked) return { hits: hydrate(chunks, keyword.ranked, snippetTerms(keyword.plan), keyword.o.snippetTokens, limit), mode: 'keyword' };
  const fused = reciprocalRankFusion([keyword.ranked.map((r) => r.id), nearest], options.rrfK ?? 60);
  return { hits: hydrate(chunks, fused, snippetTerms(keyword.plan), keyword.o.snippetTokens, limit), mode: 'hybrid' };
}

export interface IndexEmbeddingsOptions {
  /** The embedding model's name: a different one than the index's rebuilds the index. */
  model: string;
  /** Only these knowledge bases (default: all). */
  kb_ids?: string[];
  /** Texts per embeddings call. Default 32. */
  batchSize?: number;
  log?: RetrievalLog;
}

/**
 * Embeds the chunks that have no vector yet and stores their vectors (sqlite-vec), creating the
 * vector table on the first batch, once the dimension is known. Returns how many chunks it
 * embedded: 0 when sqlite-vec cannot be loaded here (said in one log line).
 */
export async function indexEmbeddings(source: RetrievalSource, embed: Embedder, options: IndexEmbeddingsOptions): Promise<number> {
  const { db, chunks } = sourceOf(source);
  if (!loadVectorExtension(db, options.log)) return 0;
  const size = Math.max(1, Math.min(2_048, Math.floor(options.batchSize ?? 32)));
  const ranges = options.kb_ids ? chunks.kbRanges(options.kb_ids) : chunks.allKbRanges();
  const current = chunks.vectorIndex();
  let dimensions = current?.model === options.model && chunks.hasVectorTable() ? current.dimensions : undefined;
  let embedded = 0;
  for (const range of ranges) {
    let after = range.lo - 1;
    for (;;) {
      const batch = dimensions === undefined ? chunks.chunksAfter(after, range.hi, size) : chunks.chunksWithoutVectors(after, range.hi, size);
      if (batch.length === 0) break;
      const values = await embed(batch.map((c) => c.text));
      if (values.length !== batch.length) throw new Error(`The embedding model returned ${values.length} vectors for ${batch.length} texts`);
      const width = dimensions ?? values[0]?.length ?? 0;
      const vectors = values.map((v) => toVector(v, width));
      if (vectors.some((v) => v === undefined)) throw new Error(`The embedding model returned vectors that are not all finite and ${width}-dimensional`);
      if (dimensions === undefined) {
        chunks.ensureVectorTable(options.model, width);
        dimensions = width;
      }
      embedded += chunks.insertVectors(batch.map((c, i) => ({ id: c.id, vector: vectors[i]! })));
      after = batch[batch.length - 1]!.id;
    }
  }
  return embedded;
}
