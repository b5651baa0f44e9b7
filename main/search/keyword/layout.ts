/**
 * A keyword search as work two threads can share: the question's plan (plan.ts) laid out as FTS5
 * queries over id spans, and how one of them runs. Everything here is plain data or a function of
 * the chunks, so either thread can lay a search out or run any of its queries (keyword.ts drives
 * a search; keyword-worker.ts is the other thread's side).
 */
import type { ChunkReader, KbRange, ScoredId } from '../../db/repositories/chunks.js';
import { and, halvesOf, KEYWORD_DEFAULTS, or, planKeyword, querySpans, type KeywordOptions, type KeywordPlan, type PlannedTerm, type QuerySpan } from './plan.js';

/** A keyword search as asked: plain data, so that the keyword thread can be handed it. */
export interface KeywordQuestion {
  /** The knowledge bases' id ranges, as the caller read them (its vector half searches the same). */
  ranges: readonly KbRange[];
  text: string;
  limit: number;
  /** Only the keyword options (numbers): see keywordQuestion in keyword.ts. */
  options: KeywordOptions;
}

/**
 * One FTS5 query of a keyword search: the selecting or the boosting query (or, unranked, the newest
 * matches) over one span, or over half of it. A search's pieces do not depend on each other, so the
 * keyword thread and its caller can share them.
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
  /** How many candidates each span keeps for the nudging terms' rescoring (`limit` without them). */
  depth: number;
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
 * Plans a keyword search and lays out its queries, the costliest first. With `split`, for two
 * threads to share them: queries of spans of at least `splitChunks` chunks are halved where that
 * pays (each half scoring at most half of `maxScoredPerKb` matches).
 */
export function layOut(chunks: ChunkReader, question: KeywordQuestion, split: boolean): KeywordWork {
  const { ranges, text, limit, options } = question;
  const o = { ...KEYWORD_DEFAULTS, ...options };
  const spans = querySpans(chunks, ranges);
  const plan = planKeyword(chunks, text, spans, o);
  const depth = depthOf(plan, limit, o);
  const work: KeywordWork = { plan, spans: spans.length, limit, depth, pieces: [] };
  if (plan.mode === 'none') return work;
  if (plan.mode === 'unranked') {
    work.pieces = spans.map((r, span) => ({ span, kind: 'ids', lo: r.lo, hi: r.hi, cap: limit, depth: limit, cost: 0, dfs: [] }));
    return work;
  }
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
