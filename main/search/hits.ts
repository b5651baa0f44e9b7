import type { ChunksRepo } from '../db/repositories/chunks.js';
import type { KeywordPlan, PlannedTerm } from './keyword/plan.js';
import { snippetOf } from './snippets.js';
import type { SearchHit } from './types.js';

const MAX_LIMIT = 1_000;

/** A ranked chunk id. */
export interface Scored {
  id: number;
  /** Higher is better. */
  score: number;
}

export function clampLimit(limit: number): number {
  return Number.isFinite(limit) ? Math.max(0, Math.min(MAX_LIMIT, Math.floor(limit))) : 0;
}

export /** Chunk rows, artifact keys and snippets for ranked ids; ids whose chunk is gone are skipped. */
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
      snippet: snippetOf(row.text, terms, tokens, row.words),
      location: row.location,
      score,
    });
  }
  return hits;
}

export /** The terms a snippet should show: every term the plan weighs. */
function snippetTerms(plan: KeywordPlan): PlannedTerm[] {
  return [...plan.select, ...plan.boost, ...plan.nudge];
}

