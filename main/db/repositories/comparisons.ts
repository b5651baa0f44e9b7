import { z } from 'zod';
import type { Comparison, ComparisonResponse, Vote } from '../../../shared/operations/comparisons.js';
import type { SqlDb as Db } from '../sql.js';
import { decodeCursor, toPage } from './cursor.js';
import { jsonColumnOr } from './decode.js';

/** A comparison as stored: the API's own fields (its datasets and citations decoded), with its owner and order. */
export type ComparisonRecord = Pick<Comparison, 'id' | 'prompt' | 'blind' | 'dataset_ids' | 'citations' | 'created_at' | 'updated_at'> & {
  seq: number;
  user_id: string;
  organization_id: string;
};

/** The row as SQLite holds it: `blind` as 0/1, datasets and citations as JSON text. */
type ComparisonRow = Omit<ComparisonRecord, 'blind' | 'dataset_ids' | 'citations'> & { blind: number; dataset_ids: string; citations: string };

// Both only describe what the comparison was asked with: unreadable, they read as none. Only the
// shape a reader walks is checked, so citations written by earlier versions keep every field.
const decode = (row: ComparisonRow): ComparisonRecord => ({
  ...row,
  blind: row.blind === 1,
  dataset_ids: jsonColumnOr(z.array(z.string()), row.dataset_ids, []),
  citations: jsonColumnOr(z.array(z.record(z.string(), z.unknown())), row.citations, []) as ComparisonRecord['citations'],
});

export type ResponseStatus = ComparisonResponse['status'];

/** One model's answer as stored: always with its model (the view hides it while blind). */
export interface ComparisonResponseRecord {
  id: string;
  comparison_id: string;
  position: number;
  model_id: string;
  model_name: string;
  content: string;
  status: ResponseStatus;
  latency_ms: number | null;
  first_token_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  error_code: string | null;
  error_detail: string | null;
  created_at: string;
  updated_at: string;
}

/** A vote as stored: the API's fields, with its comparison and voter. */
export type VoteRecord = Vote & { comparison_id: string; user_id: string };

/** What the end of an answer stores, whatever the end is. */
export type ResponseFinish = Pick<
  ComparisonResponseRecord,
  'content' | 'status' | 'latency_ms' | 'first_token_ms' | 'input_tokens' | 'output_tokens' | 'error_code' | 'error_detail'
> & { now: string };

/** One voted comparison's answers, as the leaderboard reads them. */
export interface VotedResponse {
  comparison_id: string;
  outcome: VoteRecord['outcome'];
  winner_response_id: string | null;
  response_id: string;
  model_id: string;
  model_name: string;
}

/** `writer`: the instance whose comparisons' answers these are (migration 300's `written_by`), if any. */
export function createComparisonsRepo(db: Db, writer: string | null = null) {
  const byId = db.prepare<[string], ComparisonRow>('SELECT * FROM comparisons WHERE id = ?');
  const pageOf = db.prepare<[string, number, number], ComparisonRow>('SELECT * FROM comparisons WHERE user_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?');
  const insert = db.prepare(
    `INSERT INTO comparisons (id, user_id, organization_id, prompt, blind, dataset_ids, written_by, created_at, updated_at)
     VALUES (@id, @user_id, @organization_id, @prompt, @blind, @dataset_ids, @written_by, @now, @now)`,
  );
  const setCitations = db.prepare('UPDATE comparisons SET citations = ?, updated_at = ? WHERE id = ?');
  const touch = db.prepare('UPDATE comparisons SET updated_at = ? WHERE id = ?');
  const responsesOf = db.prepare<[string], ComparisonResponseRecord>('SELECT * FROM comparison_responses WHERE comparison_id = ? ORDER BY position');
  const insertResponse = db.prepare(
    `INSERT INTO comparison_responses (id, comparison_id, position, model_id, model_name, content, status, created_at, updated_at)
     VALUES (@id, @comparison_id, @position, @model_id, @model_name, '', 'streaming', @now, @now)`,
  );
  // Appends: rewriting the whole text on every save would cost a long answer its whole length each time.
  const append = db.prepare("UPDATE comparison_responses SET content = content || ?, updated_at = ? WHERE id = ? AND status = 'streaming'");
  const firstToken = db.prepare("UPDATE comparison_responses SET first_token_ms = ? WHERE id = ? AND status = 'streaming'");
  const finish = db.prepare(
    `UPDATE comparison_responses SET content = @content, status = @status, latency_ms = @latency_ms, first_token_ms = @first_token_ms,
       input_tokens = @input_tokens, output_tokens = @output_tokens, error_code = @error_code, error_detail = @error_detail, updated_at = @now
     WHERE id = @id AND status = 'streaming'`,
  );
  // Not while another live instance writes them (this one's runs are the caller's to know: its hub).
  const interrupt = db.prepare(
    `UPDATE comparison_responses SET status = 'interrupted', error_code = 'unavailable', error_detail = ?, updated_at = ?
     WHERE comparison_id = ? AND status = 'streaming' AND NOT EXISTS (
       SELECT 1 FROM comparisons c JOIN instances i ON i.id = c.written_by WHERE c.id = comparison_responses.comparison_id AND c.written_by <> ?)`,
  );
  const voteOf = db.prepare<[string, string], VoteRecord>('SELECT * FROM comparison_votes WHERE comparison_id = ? AND user_id = ?');
  const insertVote = db.prepare(
    `INSERT INTO comparison_votes (id, comparison_id, user_id, outcome, winner_response_id, created_at)
     VALUES (@id, @comparison_id, @user_id, @outcome, @winner_response_id, @created_at)`,
  );
  const voted = db.prepare<[string], VotedResponse>(
    `SELECT v.comparison_id, v.outcome, v.winner_response_id, r.id AS response_id, r.model_id, r.model_name
     FROM comparison_votes v
     JOIN comparisons c ON c.id = v.comparison_id
     JOIN comparison_responses r ON r.comparison_id = v.comparison_id
     WHERE c.organization_id = ? AND r.status = 'complete'
     ORDER BY v.created_at, v.id, r.position`,
  );

  const reads = {
    get: (id: string): ComparisonRecord | undefined => {
      const row = byId.get(id);
      return row && decode(row);
    },
    /** Newest first; the cursor is the seq of the last row of the previous page. */
    page(userId: string, limit: number, cursor: string | undefined) {
      const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(cursor);
      if (before === undefined) return undefined;
      return toPage(pageOf.all(userId, before, limit + 1).map(decode), limit);
    },
    responses: (comparisonId: string) => responsesOf.all(comparisonId),
    vote: (comparisonId: string, userId: string) => voteOf.get(comparisonId, userId),
    /**
     * Every voted comparison of an organization, each complete answer a row, oldest vote first. An answer
     * that failed or was stopped is no answer to rank: it neither wins, loses nor ties.
     */
    votedResponses: (organizationId: string) => voted.all(organizationId),
  };
  const writes = {
    insert: (row: Pick<ComparisonRecord, 'id' | 'user_id' | 'organization_id' | 'prompt' | 'blind' | 'dataset_ids'> & { now: string }) =>
      insert.run({ ...row, blind: row.blind ? 1 : 0, dataset_ids: JSON.stringify(row.dataset_ids), written_by: writer }),
    setCitations: (id: string, citations: ComparisonRecord['citations'], now: string) => setCitations.run(JSON.stringify(citations), now, id),
    touch: (id: string, now: string) => touch.run(now, id),
    insertResponse: (row: { id: string; comparison_id: string; position: number; model_id: string; model_name: string; now: string }) => insertResponse.run(row),
    /** Appends text streamed since the last save; a finished answer is never changed by a late save. */
    append: (id: string, text: string, now: string) => append.run(text, now, id).changes > 0,
    firstToken: (id: string, ms: number) => firstToken.run(ms, id),
    finish: (id: string, f: ResponseFinish) => finish.run({ id, ...f }).changes > 0,
    /** Answers found streaming with nothing running them (the app stopped mid-way), unless another live instance writes them. */
    markInterrupted: (comparisonId: string, detail: string, now: string) => interrupt.run(detail, now, comparisonId, writer).changes,
    insertVote: (row: VoteRecord) => insertVote.run(row),
  };
  return { ...reads, ...writes };
}

export type ComparisonsRepo = ReturnType<typeof createComparisonsRepo>;
