/**
 * Keyword planning: which of a question's terms select, boost, nudge or are dropped. A search runs from
 * keyword.ts (laid out as queries: layout.ts; nudging terms: rescore.ts); fusion with vectors, hybrid.ts.
 *
 * Why keyword search stays fast at a million chunks: FTS5's bm25 costs about 2 µs for every
 * chunk that matches (it scores them all before keeping the best: the term's positions, and a
 * lookup of the chunk's length), plus about 80 ns for every chunk of the whole index holding a
 * ranked term (it counts them for the term's weight, the IDF) — measured at a million chunks here.
 * A question's common words would each cost tens of milliseconds. So a question is planned first:
 *
 * 1. words are lowercased and split as the index splits them; stop words go; each remaining
 *    word is stemmed by FTS5's own tokenizer and looked up in the term statistics (document
 *    frequency); words the index has never seen go too;
 * 2. the rarest terms *select* candidates (OR), while the chunks they match stay within a
 *    scoring budget (estimated from document frequencies and the share of the corpus in the
 *    knowledge bases searched);
 * 3. the next terms, rarest first, while the postings they add (document frequency × the share
 *    of the corpus searched, summed) stay within a budget, their IDF counting within its budget,
 *    and each is in at most 80 000 chunks, *boost*: a second query `(selectors) AND (boosters)` scores the candidates that
 *    also hold a booster with every term. Taking, for each chunk, that score where present and the
 *    selectors' score otherwise gives exactly the bm25 of all these terms for every chunk holding
 *    a selector, so the top results are the ones plain bm25 would give among those chunks;
 * 4. terms too common for that only *nudge*: their exact bm25 part is added to the best hundred
 *    candidates' scores from the candidates' text (rescore.ts), best first, until no candidate
 *    left could reach the top even holding them all. FTS5 never sees them, so their postings are
 *    never counted. Terms in more than about half of the chunks weigh nothing in bm25 and are
 *    dropped;
 * 5. when even the rarest term is too common to select with, candidates are the chunks holding
 *    all of the rarest few terms (AND), bm25-ranked if their IDF counting is affordable and
 *    newest first otherwise.
 *
 * Where Parley's ranking extension is loaded (native/parley-fts.c: FTS5's bm25 given the terms'
 * document frequencies, from the term statistics), FTS5 counts nothing, so neither counting budget applies:
 * every term that cannot select boosts while the postings budget lasts, and conjunctions are always bm25-ranked.
 *
 * No count caps the terms (issue #28): a cap of 12, tuned on Cranfield's short questions, put
 * keyword search below plain bm25 on CISI's paragraph-long ones (nDCG@10 0.318 against 0.328;
 * 0.330 with every term; docs/performance.md, *Long questions*). A small or medium corpus ranks
 * with every word of the question (its first 64 words: a longer question ranks as its first 64
 * do), a huge one with as many of the rarest as the postings budget affords. Stop words still go:
 * ranking with them lost on CISI (0.309) and Cranfield (0.365) and changed nothing on Medline.
 * Only what FTS5 scores is budgeted then (about 1.7 µs a match the first time a row is scored
 * on a connection, 0.7 µs once the extension remembers its length).
 *
 * Each knowledge base is searched as a rowid range (see migration 050; neighbouring ranges merge
 * into one span), so FTS5 never reads another knowledge base's postings; and at most
 * `maxScoredPerKb` matches are ever scored per span. Document frequencies come from
 * `chunk_terms` (the ingest job should call chunks.refreshTermStatsIfStale() after loading);
 * terms it lacks are counted live once and remembered. Every term reaches FTS5 as a quoted string, so no question can be an FTS5
 * syntax error.
 */
import type { ChunkReader, KbRange } from '../../db/repositories/chunks.js';
import { WORD_CHAR, wordList } from '../../../shared/words.js';
import { STOP_WORDS } from './stop-words.js';

export interface KeywordOptions {
  /** About how many matches bm25 may score per search, for the selecting terms. Default 4000. */
  scoreBudget?: number;
  /**
   * How many postings bm25 may count to weigh terms, all queries of a search together (only where
   * FTS5 counts them: not with the ranking extension, which is given the counts). Default
   * 200 000 (about 6 ms of counting at worst here). At 60 000, a million chunks pushed the terms of
   * most questions to nudging or to unranked conjunctions, and the top 10 agreed with exhaustive
   * bm25 on 87% of results; at 200 000 (with nudgeDepth 100), 95–96% (docs/performance.md, retrieval bench).
   */
  idfBudget?: number;
  /** Hard cap on the matches scored per knowledge base; beyond it, the newest. Default 10 000. */
  maxScoredPerKb?: number;
  /**
   * How many postings (chunks holding a term, within the knowledge bases searched: document
   * frequency × their share of the corpus) the boosting terms may add up to, rarest first; the
   * terms beyond nudge or drop. Default 300 000: more than any question of the retrieval bench
   * adds at a million chunks (three words of ranks ≤ 2,160 of 50,000, all four knowledge bases), so
   * its p95 stands, while a long question's commonest words at that size stop boosting.
   */
  postingsBudget?: number;
  /** At most this many terms select and boost (a tuning and test knob: the postings budget is what limits them). Default 64, the most words a question is read for. */
  maxTerms?: number;
  /** How many of the best candidates (per query span) the nudging terms are checked in. Default 100. */
  nudgeDepth?: number;
  /** At most this many nudging terms. Default 4. */
  maxNudgeTerms?: number;
  /**
   * Terms in more chunks than this never boost (only where FTS5 counts: not with the ranking
   * extension): FTS5's bm25 would count every chunk holding them
   * (about 80 ns each: 6 ms at the default, 13 ms for a word in one chunk of six at a million
   * chunks); they nudge, which is exact among the best candidates but reads their text. Default
   * 80 000. At a million chunks (docs/performance.md, 2026-11-23 late), against no limit: p95 lower by 0.6–2 ms,
   * agreement with exhaustive bm25 0.955 → 0.954; at 50 000, agreement falls to 0.939.
   */
  maxBoostDf?: number;
  /** Longest snippet, in words. Default 32. */
  snippetTokens?: number;
  /**
   * When the keyword thread shares a search (keyword-thread.ts), a span holding at least this many
   * chunks is queried as two halves, one per thread: each half scores half the matches (and, where
   * FTS5 counts, both count the terms' IDF over the whole index). Default 10 000. Measured on the
   * bench's 1M-chunk corpus (2026-11-24, FTS5 counting), each query whole against its slower half:
   * p95 8.0 → 4.5 ms, the two halves together 1.37 times the whole; at 100k (25k-chunk spans) 4.9 → 2.8 ms.
   */
  splitChunks?: number;
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
  /** Terms too common to afford in FTS5's bm25: their exact bm25 part is added to the best candidates' scores (rescore.ts). */
  nudge: PlannedTerm[];
  /** Terms that weigh (next to) nothing, or beyond the limits. */
  dropped: PlannedTerm[];
  /** Stop words, and words no chunk holds. */
  ignored: string[];
}

export const KEYWORD_DEFAULTS: Required<KeywordOptions> = {
  scoreBudget: 4_000,
  idfBudget: 200_000,
  maxScoredPerKb: 10_000,
  postingsBudget: 300_000,
  maxTerms: 64,
  nudgeDepth: 100,
  maxNudgeTerms: 4,
  maxBoostDf: 80_000,
  snippetTokens: 32,
  splitChunks: 10_000,
};
const MAX_QUESTION_CHARS = 4_000;
const MAX_WORDS = 64;
const CONJUNCTION_TERMS = 3;
/** Terms weighing less than this in bm25 (in over ~45% of chunks) are not worth a probe. */
const MIN_NUDGE_IDF = 0.2;

/** A character of a word (letters, digits, marks): shared/words.ts's, re-exported for the search module's users. */
export { WORD_CHAR };

/**
 * The question's words as the index splits them (shared/words.ts: ICU's words in scripts written
 * without spaces), lowercased, stop words out, deduplicated.
 */
export function questionWords(text: string): { words: string[]; stop: string[] } {
  const words: string[] = [];
  const stop: string[] = [];
  const seen = new Set<string>();
  for (const word of wordList(text.slice(0, MAX_QUESTION_CHARS))) {
    if (seen.has(word)) continue;
    seen.add(word);
    if (STOP_WORDS.has(word)) stop.push(word);
    else if (words.length < MAX_WORDS) words.push(word);
  }
  return { words, stop };
}

export const quote = (word: string) => `"${word.replaceAll('"', '""')}"`;
export const or = (terms: readonly PlannedTerm[]) => terms.map((t) => t.fts).join(' OR ');
export const and = (terms: readonly PlannedTerm[]) => terms.map((t) => t.fts).join(' AND ');

/** Decides which of the question's terms select, boost, or are dropped (see the top of this file). */
export function planKeyword(chunks: ChunkReader, text: string, ranges: readonly KbRange[], options: KeywordOptions = {}): KeywordPlan {
  const o = { ...KEYWORD_DEFAULTS, ...options };
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
  const searched = ranges.reduce((n, r) => n + r.inserted, 0);
  const share = Math.min(1, searched / total);
  const queries = ranges.length;

  // FTS5 counts the postings of the terms it ranks by, once a query, unless their counts are given
  // (the ranking extension): then nothing is counted, and neither idfBudget nor maxBoostDf applies.
  const counting = chunks.dfGiven ? 0 : queries;
  let scored = 0;
  let selectDf = 0;
  let i = 0;
  for (; i < terms.length && plan.select.length < o.maxTerms; i++) {
    const t = terms[i]!;
    // The chunks searched bound the matches of an OR however many terms it has: where they are
    // within the budget (a small corpus), every term selects and the ranking is plain bm25's.
    const nextScored = Math.min(searched, scored + t.df * share);
    // Counted once by the selecting query, and once more by the boosting one, per knowledge base.
    const idf = counting * 2 * (selectDf + t.df);
    if (nextScored > o.scoreBudget || idf > o.idfBudget) break;
    plan.select.push(t);
    scored = nextScored;
    selectDf += t.df;
  }
  // A nudge is counted in the candidates' text word by word (rescore.ts), so a word the index splits in several terms cannot nudge.
  const nudgeOrDrop = (t: PlannedTerm) => {
    if (plan.nudge.length < o.maxNudgeTerms && t.stems.length === 1 && bm25Idf(total, t.df) >= MIN_NUDGE_IDF) plan.nudge.push(t);
    else plan.dropped.push(t);
  };
  if (plan.select.length > 0) {
    plan.mode = 'ranked';
    let boostDf = 0;
    let postings = 0;
    for (; i < terms.length; i++) {
      const t = terms[i]!;
      const idf = counting * (2 * selectDf + boostDf + t.df);
      const nextPostings = postings + t.df * share;
      const affordable = nextPostings <= o.postingsBudget && idf <= o.idfBudget && (counting === 0 || t.df <= o.maxBoostDf);
      if (plan.select.length + plan.boost.length < o.maxTerms && affordable) {
        plan.boost.push(t);
        boostDf += t.df;
        postings = nextPostings;
      } else nudgeOrDrop(t);
    }
    return plan;
  }

  // Every term is too common to select with: chunks holding all of the rarest few.
  plan.select = terms.slice(0, CONJUNCTION_TERMS);
  terms.slice(CONJUNCTION_TERMS).forEach(nudgeOrDrop);
  const idf = counting * plan.select.reduce((n, t) => n + t.df, 0);
  plan.mode = idf <= o.idfBudget ? 'conjunctive' : 'unranked';
  return plan;
}

/** FTS5's bm25 IDF: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
export function bm25Idf(chunks: number, df: number): number {
  return Math.max(1e-6, Math.log((chunks - df + 0.5) / (df + 0.5)));
}

/** The ids one query covers: one knowledge base's range, or neighbouring ones merged; `filled` says where each of them holds chunks. */
export interface QuerySpan extends KbRange {
  /** Each merged knowledge base's first id and how many chunks it was given (ids lo … lo + inserted − 1). */
  filled: Array<{ lo: number; inserted: number }>;
}

/**
 * The id spans to query for these knowledge bases: neighbouring ranges merge when no other
 * knowledge base holds chunks between them, so searching several knowledge bases often costs one
 * query (one IDF count per term) instead of one per knowledge base, without reading any other's
 * postings.
 */
export function querySpans(chunks: ChunkReader, ranges: readonly KbRange[]): QuerySpan[] {
  const own = (r: KbRange): QuerySpan => ({ ...r, filled: [{ lo: r.lo, inserted: r.inserted }] });
  if (ranges.length < 2) return ranges.map(own);
  const searched = new Set(ranges.map((r) => r.slot));
  const others = chunks
    .allKbRanges()
    .filter((r) => !searched.has(r.slot) && r.inserted > 0)
    .map((r) => r.slot);
  const spans: QuerySpan[] = [];
  for (const r of [...ranges].sort((a, b) => a.slot - b.slot)) {
    const last = spans[spans.length - 1];
    if (last && !others.some((slot) => slot > last.slot && slot < r.slot)) {
      spans[spans.length - 1] = {
        ...last,
        kb_id: `${last.kb_id},${r.kb_id}`,
        slot: r.slot,
        hi: r.hi,
        inserted: last.inserted + r.inserted,
        filled: [...last.filled, { lo: r.lo, inserted: r.inserted }],
      };
    } else spans.push(own(r));
  }
  return spans;
}

/** The span's ids in two parts holding as many chunks each (give or take one): older [lo, mid], newer [mid + 1, hi]; whole below two chunks. */
export function halvesOf(span: QuerySpan): Array<[number, number]> {
  let older = Math.floor(span.inserted / 2);
  for (const { lo, inserted } of span.filled) {
    if (older === 0) break;
    if (older <= inserted) return [[span.lo, lo + older - 1], [lo + older, span.hi]];
    older -= inserted;
  }
  return [[span.lo, span.hi]];
}
