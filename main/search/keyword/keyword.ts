import type { ChunkReader, KbRange, ScoredId } from '../../db/repositories/chunks.js';
import { and, halvesOf, KEYWORD_DEFAULTS, or, planKeyword, querySpans, type KeywordOptions, type KeywordPlan, type PlannedTerm, type QuerySpan } from './plan.js';
import { rescore } from './rescore.js';
import { clampLimit, hydrate, snippetTerms, type Scored } from '../hits.js';
import type { RetrievalSource, SearchHit, SearchQuery } from '../types.js';

/**
 * One FTS5 query of a keyword search: the selecting or the boosting query (or, unranked, the newest
 * matches) over one span, or over half of it. A search's pieces do not depend on each other, so the
 * keyword thread and its caller can share them (keyword-thread.ts).
 */
export interface KeywordPiece {
  /** The span it searches (an index into the search's spans). */
  span: number;
  kind: 'select' | 'boost' | 'ids';
  lo: number;
  hi: number;
  /** At most this many matches scored, newest first. */
  cap: number;
  /** This many returned, best first. */
  depth: number;
  /** Its estimated cost, in µs. */
  cost: number;
  /** The document frequency of each term of its match expression, in order (`select`, then `boost`): given to FTS5 for the IDFs where the ranking extension is loaded. */
  dfs: number[];
}

/** What a keyword search runs: its plan and its pieces (plain data: the keyword thread hands it over). */
export interface KeywordWork {
  plan: KeywordPlan;
  spans: number;
  limit: number;
  pieces: KeywordPiece[];
}

/** How many candidates each span keeps for the nudging terms' rescoring (or just `limit` without them). */
const depthOf = (plan: KeywordPlan, limit: number, o: Required<KeywordOptions>) => (plan.nudge.length > 0 ? Math.max(limit, o.nudgeDepth) : limit);

/**
 * What FTS5's bm25 costs, in µs, measured on the bench's 1M-chunk corpus (docs/performance.md, *Keyword search
 * at 1M chunks*): scoring a match, and counting a posting of the whole index for a term's IDF
 * (once per query, however few chunks the query's range holds; nothing with the ranking
 * extension, which is given the counts). Scoring a match is what it costs the first time a row
 * is scored on a connection; once the ranking extension remembers the row's length, about 0.7 µs
 * (docs/performance.md, *Remembered row lengths*). The estimate stays the first time's, so that the caller's
 * patience with the keyword thread (keyword-thread.ts) covers a query over rows not yet scored;
 * with the counts given, halving decisions do not depend on it (every cost scales alike).
 */
const SCORE_US = 1.7;
const COUNT_US = 0.08;

/** A query as laid out, with what it is estimated to score and count. */
interface Laid extends Omit<KeywordPiece, 'cost'> {
  scored: number;
  counted: number;
}
const costOf = (p: Laid) => SCORE_US * p.scored + COUNT_US * p.counted;
/** About how long two threads take over these queries, each taking the next when free. */
const makespan = (pieces: readonly Laid[]) => Math.max(...pieces.map(costOf), pieces.reduce((n, p) => n + costOf(p), 0) / 2);

/**
 * Halves the queries whose halving shortens the search on two threads, largest first. A half
 * scores half the matches but, where FTS5 counts (no ranking extension), counts every posting of
 * its terms all the same, so a query whose cost is mostly counting (a common boosting term) stays
 * whole: halved, it would cost each thread about what it cost one.
 */
function halveWherePays(pieces: Laid[], spans: readonly QuerySpan[], splitChunks: number): Laid[] {
  let laid = pieces;
  for (const piece of [...pieces].sort((a, b) => costOf(b) - costOf(a))) {
    const span = spans[piece.span]!;
    const halves = span.inserted >= splitChunks ? halvesOf(span) : [];
    if (halves.length !== 2) continue;
    const cap = Math.ceil(piece.cap / 2);
    const parts = halves.map(([lo, hi]) => ({ ...piece, lo, hi, cap, scored: piece.scored / 2 }));
    const next = [...laid.filter((p) => p !== piece), ...parts];
    if (makespan(next) < makespan(laid)) laid = next;
  }
  return laid;
}

/**
 * Plans a keyword search of `ranges` and lays out its queries, the costliest first. With
 * `split`, for two threads to share them: queries of spans of at least `splitChunks` chunks are
 * halved where that pays (each half scoring at most half of `maxScoredPerKb` matches).
 */
export function keywordWork(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions, split: boolean): KeywordWork {
  const o = { ...KEYWORD_DEFAULTS, ...options };
  const spans = querySpans(chunks, ranges);
  const plan = planKeyword(chunks, text, spans, o);
  const work: KeywordWork = { plan, spans: spans.length, limit, pieces: [] };
  if (plan.mode === 'none') return work;
  if (plan.mode === 'unranked') {
    work.pieces = spans.map((r, span) => ({ span, kind: 'ids', lo: r.lo, hi: r.hi, cap: limit, depth: limit, cost: 0, dfs: [] }));
    return work;
  }
  const depth = depthOf(plan, limit, o);
  const total = Math.max(1, chunks.insertedTotal());
  const dfs = (terms: readonly PlannedTerm[]) => terms.reduce((n, t) => n + t.df, 0);
  const selectDf = dfs(plan.select);
  const boostDf = dfs(plan.boost);
  // FTS5's bm25 counts its terms' postings over the whole index; given their counts, nothing is counted.
  const counts = chunks.dfGiven ? 0 : 1;
  const dfsOf = (terms: readonly PlannedTerm[]) => (chunks.dfGiven ? terms.map((t) => t.df) : []);
  const selectDfs = dfsOf(plan.select);
  const boostDfs = [...selectDfs, ...dfsOf(plan.boost)];
  // Matches, estimated from document frequencies: any selector's (OR), or the rarest one's at most (AND).
  const matching = plan.mode === 'ranked' ? selectDf : Math.min(...plan.select.map((t) => t.df));
  let laid: Laid[] = spans.flatMap((r, span) => {
    const scored = Math.min(o.maxScoredPerKb, (matching * r.inserted) / total);
    const whole = { span, lo: r.lo, hi: r.hi, cap: o.maxScoredPerKb, depth };
    const select: Laid = { ...whole, kind: 'select', scored, counted: counts * selectDf, dfs: selectDfs };
    // The boosting query scores the candidates that also hold a booster.
    return plan.boost.length > 0
      ? [select, { ...whole, kind: 'boost', scored: scored * Math.min(1, boostDf / total), counted: counts * (selectDf + boostDf), dfs: boostDfs }]
      : [select];
  });
  if (split) laid = halveWherePays(laid, spans, o.splitChunks);
  work.pieces = laid
    .sort((a, b) => costOf(b) - costOf(a))
    .map((laidOut) => {
      const { scored: _scored, counted: _counted, ...piece } = laidOut;
      return { ...piece, cost: Math.round(costOf(laidOut)) };
    });
  return work;
}

/** Runs one piece of `plan`: its matches, best first (unranked: newest first, bm25 0). */
export function runPiece(chunks: ChunkReader, plan: KeywordPlan, piece: KeywordPiece): ScoredId[] {
  const { kind, lo, hi, cap, depth, dfs } = piece;
  if (kind === 'ids') return chunks.matchIds(and(plan.select), lo, hi, cap).map((id) => ({ id, bm25: 0 }));
  const select = plan.mode === 'ranked' ? or(plan.select) : and(plan.select);
  // With every term: exact for the chunks holding a booster too, so it replaces the selectors' score.
  return chunks.rank(kind === 'select' ? select : `(${select}) AND (${or(plan.boost)})`, lo, hi, cap, depth, dfs);
}

/** The best `depth` of some lists of matches, in the order FTS5 returns one list: bm25, then newest. */
function bestOf(lists: readonly ScoredId[][], depth: number): ScoredId[] {
  if (lists.length === 1) return lists[0]!;
  return lists.flat().sort((a, b) => a.bm25 - b.bm25 || b.id - a.id).slice(0, depth);
}

/** The search's ranking from its pieces' results (`results[i]` is piece i's), the nudging terms rescored: the same whether or not spans were halved. */
export function combineWork(chunks: ChunkReader, work: KeywordWork, results: readonly ScoredId[][], options: KeywordOptions): KeywordRanking {
  return { plan: work.plan, ranked: bestScored(chunks, work, results, options) };
}

function bestScored(chunks: ChunkReader, work: KeywordWork, results: readonly ScoredId[][], options: KeywordOptions): Scored[] {
  const { plan, pieces, limit } = work;
  if (plan.mode === 'none') return [];
  if (plan.mode === 'unranked') {
    const ids = results.flat().map((r) => r.id);
    ids.sort((a, b) => b - a);
    return ids.slice(0, limit).map((id, rank) => ({ id, score: 1 / (rank + 1) }));
  }
  const o = { ...KEYWORD_DEFAULTS, ...options };
  const depth = depthOf(plan, limit, o);
  const all: Scored[] = [];
  for (let span = 0; span < work.spans; span++) {
    const of = (kind: KeywordPiece['kind']) => bestOf(results.filter((_, i) => pieces[i]!.span === span && pieces[i]!.kind === kind), depth);
    const best = new Map<number, number>();
    for (const hit of of('select')) best.set(hit.id, hit.bm25);
    for (const hit of of('boost')) best.set(hit.id, hit.bm25);
    const scored = [...best].map(([id, bm25]) => ({ id, score: -bm25 }));
    all.push(...(plan.nudge.length > 0 ? rescore(chunks, scored, plan.nudge, limit, depth) : scored));
  }
  all.sort((a, b) => b.score - a.score || b.id - a.id);
  return all.slice(0, limit);
}

/** A keyword ranking: the best ids, and the plan (its terms make the snippets). */
export interface KeywordRanking {
  ranked: Scored[];
  plan: KeywordPlan;
}

/** Runs every query of `work` here, one after the other, and ranks. */
export function runWork(chunks: ChunkReader, work: KeywordWork, options: KeywordOptions): KeywordRanking {
  return combineWork(chunks, work, work.pieces.map((piece) => runPiece(chunks, work.plan, piece)), options);
}

/** The best `limit` chunks of the knowledge bases `ranges` for `text` by keywords, every query run here, one after the other. */
export function keywordRanking(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions): KeywordRanking {
  return runWork(chunks, keywordWork(chunks, ranges, text, limit, options, false), options);
}

/** What shares keyword searches with the calling thread: the keyword thread (keyword-thread.ts). */
export interface KeywordSharing {
  /** A function that finishes the search on the caller's connection (undefined if sharing failed), or undefined when it cannot share now. */
  rank(ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions): ((chunks: ChunkReader) => KeywordRanking | undefined) | undefined;
}

export interface KeywordSearchOptions extends KeywordOptions {
  /** The thread that shares keyword searches with this one; without it, every query runs here. */
  keywords?: KeywordSharing | undefined;
}

/**
 * Starts {@link keywordRanking}: hands it to the keyword thread when that is free (it may plan, and
 * both threads then run the queries). The function returned finishes it on this thread, with the
 * thread's part or all of it here; call it once. A hybrid search searches the vectors in between.
 */
export function startKeywordRanking(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordSearchOptions): () => KeywordRanking {
  const shared = ranges.length > 0 ? options.keywords?.rank(ranges, text, limit, options) : undefined;
  return () => shared?.(chunks) ?? keywordRanking(chunks, ranges, text, limit, options);
}

/** The longest snippet `options` ask for. */
export const snippetTokensOf = (options: KeywordOptions) => options.snippetTokens ?? KEYWORD_DEFAULTS.snippetTokens;

/**
 * Keyword search: the best `query.limit` chunks of `query.kb_ids` for a natural-language
 * question, by bm25 over its informative terms. A question of stop words only finds nothing.
 */
export function searchKeyword(source: RetrievalSource, query: SearchQuery, options: KeywordSearchOptions = {}): SearchHit[] {
  const limit = clampLimit(query.limit);
  if (limit === 0) return [];
  const { chunks } = source;
  const { plan, ranked } = startKeywordRanking(chunks, chunks.kbRanges(query.kb_ids), query.text, limit, options)();
  return hydrate(chunks, ranked, snippetTerms(plan), snippetTokensOf(options), limit);
}

