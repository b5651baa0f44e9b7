/**
 * Exact bm25 for the terms too common to hand to FTS5 (the plan's nudging terms): their part of
 * each best candidate's score, computed here from the candidate's text and length, the document
 * frequencies of the term statistics and FTS5's own totals. FTS5's bm25() would count every chunk
 * of the whole index holding such a term before scoring the first row (about 80 ns a chunk: 13 ms
 * for a word in one chunk of six at a million chunks), and probing its postings for each
 * candidate costs 8 µs a candidate. bm25 is a sum over terms, each depending only on its own
 * frequency in the chunk, its IDF and the chunk's length, so the candidate's score plus these
 * parts is the bm25 of all the terms. Exact as far as the statistics are fresh (they lag the
 * index by at most a tenth of its growth) and the text splits as the index splits it.
 *
 * rankResults, at the end, is a search's last step (keyword.ts): its queries' results merged
 * into one ranking, rescored here.
 */
import type { ChunkReader, ScoredId } from '../../db/repositories/chunks.js';
import type { Scored } from '../hits.js';
import type { KeywordPiece, KeywordWork } from './layout.js';
import { hasSpacelessScript, WORD_CHAR } from '../../../shared/words.js';
import { fold } from './fold.js';
import { bm25Idf, type KeywordPlan, type PlannedTerm } from './plan.js';

/** FTS5's bm25 parameters. */
const K1 = 1.2;
const B = 0.75;
/** Most candidates read per round trip (the first reads `limit`, each next one twice as many). */
const MAX_BATCH = 64;

const ENDS_IN_WORD_CHAR = new RegExp(`${WORD_CHAR}$`, 'u');
const WORD_AT = new RegExp(`${WORD_CHAR}+`, 'uy');
const RUNS = new RegExp(`${WORD_CHAR}+`, 'gu');

/** One term's part of bm25 in a chunk of `tokens` tokens holding it `tf` times. */
function bm25Part(idf: number, tf: number, tokens: number, averageTokens: number): number {
  return tf === 0 ? 0 : (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * tokens) / averageTokens));
}

/** The most a term can add to any chunk's bm25 (its frequency unbounded, the chunk empty). */
const mostOf = (idf: number) => idf * (K1 + 1);

/**
 * A stem's leading characters that every word stemming to it starts with: Porter's rules rewrite
 * at most the last letter of what stays of a short word (toy → toi, happy → happi) and the last
 * two of a longer one (sensibility → sensibl). Kept as long as that allows, since every word
 * starting with it is looked up.
 */
const prefixOf = (stem: string) => stem.slice(0, Math.max(1, stem.length - (stem.length >= 6 ? 2 : 1)));

/**
 * The words of `text` (as the index read it) that may stem to each term (start with its prefix),
 * per term. Text in a script written without spaces comes with its words already apart (the
 * chunk's stored words, migration 220: ICU is not run again here, which cost ~2 ms a passage), so
 * its runs are its words; they go to the stemmer as written, lowercased, since the index's
 * tokenizer folds them itself (folding first would take Thai's vowel marks out, which the
 * tokenizer splits at). Other text is searched for the prefixes directly: no per-word work on the
 * candidates of an English question.
 */
function candidateWords(text: string, prefixes: readonly string[]): string[][] {
  if (!hasSpacelessScript(text)) return prefixedWords(fold(text), prefixes);
  const words = (text.match(RUNS) ?? []).map((w) => ({ word: w.toLowerCase(), folded: fold(w) }));
  return prefixes.map((prefix) => words.filter((w) => w.folded.startsWith(prefix)).map((w) => w.word));
}

/** The words of `folded` (text without a script written without spaces) starting with each prefix, per prefix. */
function prefixedWords(folded: string, prefixes: readonly string[]): string[][] {
  return prefixes.map((prefix) => {
    const words: string[] = [];
    for (let at = folded.indexOf(prefix); at >= 0; at = folded.indexOf(prefix, at + 1)) {
      if (at > 0 && ENDS_IN_WORD_CHAR.test(folded.slice(Math.max(0, at - 2), at))) continue;
      WORD_AT.lastIndex = at;
      const word = WORD_AT.exec(folded)?.[0];
      if (word) words.push(word);
    }
    return words;
  });
}

/**
 * Adds to each candidate's score (bm25 of the selecting terms, higher is better) the exact bm25
 * part of each of `terms`, reading candidates best first and stopping once no unread one can
 * reach the best `limit` even holding every term (or after `depth` candidates): the
 * threshold algorithm. Candidates not read keep their score. Returns the candidates, rescored.
 * `terms` are single-stem words (the plan nudges no other).
 */
export function rescore(chunks: ChunkReader, candidates: readonly Scored[], terms: readonly PlannedTerm[], limit: number, depth: number): Scored[] {
  if (terms.length === 0 || candidates.length === 0) return [...candidates];
  const totals = chunks.indexTotals();
  if (totals.rows === 0 || totals.tokens === 0) return [...candidates];
  const average = totals.tokens / totals.rows;
  const idfs = terms.map((t) => bm25Idf(totals.rows, t.df));
  // One stem each: the plan nudges no word the index splits.
  const stems = terms.map((t) => t.stems[0]!);
  const prefixes = stems.map(prefixOf);
  const most = idfs.reduce((n, idf) => n + mostOf(idf), 0);

  const ordered = [...candidates].sort((a, b) => b.score - a.score || b.id - a.id);
  const out = new Map<number, number>();
  const best: number[] = []; // the best `limit` rescored scores, descending
  let read = 0;
  let size = Math.max(1, Math.min(limit, MAX_BATCH));
  while (read < ordered.length && read < depth) {
    const next = ordered[read]!;
    if (best.length >= limit && next.score + most < best[limit - 1]!) break;
    const batch = ordered.slice(read, Math.min(read + size, depth));
    size = Math.min(size * 2, MAX_BATCH);
    read += batch.length;
    const docs = chunks.chunkTokens(batch.map((c) => c.id));
    const words = docs.map((d) => candidateWords(d.text, prefixes));
    const known = new Map<string, string[]>();
    const unique = [...new Set(words.flat(2))];
    chunks.stems(unique).forEach((s, i) => known.set(unique[i]!, s));
    const byId = new Map(docs.map((d, i) => [d.id, i]));
    for (const c of batch) {
      const i = byId.get(c.id);
      let score = c.score;
      if (i !== undefined) {
        const doc = docs[i]!;
        words[i]!.forEach((list, t) => {
          let tf = 0;
          for (const word of list) for (const s of known.get(word) ?? []) if (s === stems[t]) tf++;
          score += bm25Part(idfs[t]!, tf, doc.tokens, average);
        });
      }
      out.set(c.id, score);
      best.push(score);
      best.sort((a, b) => b - a);
      if (best.length > limit) best.length = limit;
    }
  }
  return candidates.map((c) => ({ id: c.id, score: out.get(c.id) ?? c.score }));
}

/** A keyword ranking: the best ids, and the plan (its terms make the snippets). */
export interface KeywordRanking {
  ranked: Scored[];
  plan: KeywordPlan;
}

/** The best `depth` of some lists of matches, in the order FTS5 returns one list: bm25, then newest. */
function bestOf(lists: readonly ScoredId[][], depth: number): ScoredId[] {
  if (lists.length === 1) return lists[0]!;
  return lists.flat().sort((a, b) => a.bm25 - b.bm25 || b.id - a.id).slice(0, depth);
}

/**
 * A search's ranking from its queries' results (`results[i]` is `work.pieces[i]`'s, whichever
 * thread ran it): per span, the boosting query's score where it has one and the selecting one's
 * otherwise, the nudging terms rescored, then the best `limit` of all spans. The same whether or
 * not spans were halved, as halves keep the same best matches as the whole.
 */
export function rankResults(chunks: ChunkReader, work: KeywordWork, results: readonly ScoredId[][]): KeywordRanking {
  const { plan, pieces, limit, depth } = work;
  if (plan.mode === 'none') return { plan, ranked: [] };
  if (plan.mode === 'unranked') {
    const ids = results.flat().map((r) => r.id);
    ids.sort((a, b) => b - a);
    return { plan, ranked: ids.slice(0, limit).map((id, rank) => ({ id, score: 1 / (rank + 1) })) };
  }
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
  return { plan, ranked: all.slice(0, limit) };
}
