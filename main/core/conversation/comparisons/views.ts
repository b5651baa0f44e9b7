import type { ErrorCode } from '../../../../shared/errors.js';
import type { Comparison, ComparisonResponse, ComparisonSummary } from '../../../../shared/operations/comparisons.js';
import type { ComparisonResponseRecord, ComparisonRecord, VoteRecord } from '../../../db/repositories/comparisons.js';

/** A, B, … Z, then AA, AB…: what names an answer while its model is hidden. */
export function labelOf(position: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return position < 26 ? (letters[position] as string) : `${labelOf(Math.floor(position / 26) - 1)}${letters[position % 26] as string}`;
}

/** Blind comparisons hide their models until the comparison has a vote. */
export const revealed = (row: ComparisonRecord, vote: VoteRecord | undefined): boolean => !row.blind || vote !== undefined;

export function responseView(row: ComparisonResponseRecord, reveal: boolean): ComparisonResponse {
  return {
    id: row.id,
    label: labelOf(row.position),
    model_id: reveal ? row.model_id : null,
    model_name: reveal ? row.model_name : null,
    content: row.content,
    status: row.status,
    latency_ms: row.latency_ms,
    first_token_ms: row.first_token_ms,
    usage: row.input_tokens === null || row.output_tokens === null ? null : { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
    error: row.error_code ? { code: row.error_code as ErrorCode, detail: row.error_detail ?? '' } : null,
  };
}

export function comparisonView(row: ComparisonRecord, responses: ComparisonResponseRecord[], vote: VoteRecord | undefined): Comparison {
  const reveal = revealed(row, vote);
  return {
    id: row.id,
    prompt: row.prompt,
    blind: row.blind,
    dataset_ids: row.dataset_ids,
    citations: row.citations,
    status: responses.some((r) => r.status === 'streaming') ? 'streaming' : 'complete',
    responses: responses.map((r) => responseView(r, reveal)),
    vote: vote ? { id: vote.id, outcome: vote.outcome, winner_response_id: vote.winner_response_id, created_at: vote.created_at } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function summaryView(row: ComparisonRecord, responses: ComparisonResponseRecord[], vote: VoteRecord | undefined): ComparisonSummary {
  const full = comparisonView(row, responses, vote);
  return {
    id: full.id,
    prompt: full.prompt,
    blind: full.blind,
    dataset_ids: full.dataset_ids,
    status: full.status,
    vote: full.vote,
    created_at: full.created_at,
    updated_at: full.updated_at,
    responses: full.responses.map(({ id, label, model_id, model_name, status }) => ({ id, label, model_id, model_name, status })),
  };
}
