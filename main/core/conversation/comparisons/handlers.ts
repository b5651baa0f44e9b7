import { randomInt } from 'node:crypto';
import { ServiceError, type FieldError } from '../../../../shared/errors.js';
import type { Sequenced } from '../../../../shared/events.js';
import type { Comparison, ComparisonEvent } from '../../../../shared/operations/comparisons.js';
import type { ComparisonResponseRecord, ComparisonRecord } from '../../../db/repositories/comparisons.js';
import { buildTurns, cancelAnywhere, groundingFor, INTERRUPTED } from '../../answering/index.js';
import { isoNow, type AuthedSlice } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { findModel, resolveModel, type CatalogCtx } from '../../models/catalog/catalog.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { leaderboardOf } from './leaderboard.js';
import { runComparison } from './run.js';
import { comparisonView, summaryView } from './views.js';
import type { HandlersFor, InputOf, StreamHandlers } from '../../platform/operation-handlers.js';

/** What reading and voting on the caller's comparisons uses: the stores, the clock and the live runs. */
type ComparisonCtx = AuthedSlice<'repos' | 'now', 'hub'>;
/** What starting one uses too: the models (resolved and called), retrieval, the caller's answer slots and the runs' lifetime. */
type ComparisonStartCtx = AuthedSlice<
  'repos' | 'config' | 'now',
  'answerSlots' | 'hub' | 'lifecycle' | 'log' | 'local' | 'health' | 'secrets' | 'providers' | 'liveConfig' | 'embedding' | 'keywords'
>;

/** One of the caller's comparisons; anyone else's is as absent as one that never existed. */
function ownComparison(ctx: AuthedSlice<'repos'>, id: string): ComparisonRecord {
  const row = ctx.repos.comparisons.get(id);
  if (!row || row.user_id !== ctx.caller.user.id) throw new ServiceError('not_found', `No comparison ${id}.`);
  return row;
}

/**
 * A comparison's answers. Ones still `streaming` with no run behind them were cut off when Parley
 * stopped: they are marked `interrupted` (text kept) the first time they are read again.
 */
function responsesOf(ctx: ComparisonCtx, row: ComparisonRecord): ComparisonResponseRecord[] {
  const responses = ctx.repos.comparisons.responses(row.id);
  if (!responses.some((r) => r.status === 'streaming') || ctx.runtime.hub.isRunning(row.id)) return responses;
  ctx.repos.comparisons.markInterrupted(row.id, INTERRUPTED.detail, isoNow(ctx));
  return ctx.repos.comparisons.responses(row.id);
}

function view(ctx: ComparisonCtx, row: ComparisonRecord): Comparison {
  return comparisonView(row, responsesOf(ctx, row), ctx.repos.comparisons.vote(row.id, ctx.caller.user.id));
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Stores the comparison and one `streaming` answer per model, then starts every model at once in
 * the background. Blind comparisons shuffle the order, so a column's position says nothing either.
 */
export function startComparison(ctx: ComparisonStartCtx, input: InputOf<'comparisons.create'>): string {
  const { repos, runtime } = ctx;
  const problems: FieldError[] = [];
  input.model_ids.forEach((id, i) => {
    if (!findModel(ctx, id)) problems.push({ path: `model_ids.${i}`, message: `no model ${id}` });
  });
  if (problems.length > 0) throw new ServiceError('invalid_argument', `model_ids: ${problems.map((p) => p.message).join(', ')}`, problems);
  assertDatasets(ctx, input.dataset_ids);
  const datasetIds = input.dataset_ids ?? [];
  const models = (input.blind ? shuffled(input.model_ids) : input.model_ids).map((id) => resolveModel(ctx, id));

  // A comparison is one answer of the caller's, whatever its models; held until its last answer ends.
  const release = runtime.answerSlots.take(ctx.caller.user.id);
  const now = isoNow(ctx);
  const id = newId('cmp');
  const answers = models.map((model) => ({
    responseId: newId('rsp'),
    model,
    turns: buildTurns(null, [{ role: 'user', content: input.prompt }], model.model.capabilities.context_tokens),
  }));
  try {
    repos.transaction(() => {
      repos.comparisons.insert({ id, user_id: ctx.caller.user.id, organization_id: ctx.caller.user.organization_id, prompt: input.prompt, blind: input.blind, dataset_ids: datasetIds, now });
      answers.forEach((a, position) =>
        repos.comparisons.insertResponse({ id: a.responseId, comparison_id: id, position, model_id: a.model.model.id, model_name: a.model.model.name, now }),
      );
    });
  } catch (error) {
    release();
    throw error;
  }

  const run = runtime.hub.start<ComparisonEvent>(id);
  const row = repos.comparisons.get(id) as ComparisonRecord;
  run.emit({ event: 'comparison.created', data: { comparison: comparisonView(row, repos.comparisons.responses(id), undefined) } });
  const plan = { comparisonId: id, userId: ctx.caller.user.id, prompt: input.prompt, datasetIds, answers, ground: () => groundingFor(ctx, datasetIds, input.prompt) };
  void runtime.lifecycle
    .track(runComparison({ repos, runtime, now: ctx.now, log: runtime.log }, plan, run))
    .catch((error: unknown) => {
      // runComparison stores every failure itself; reaching here means the store failed too.
      runtime.log.error(`comparison ${id} failed`, error);
      run.end();
    })
    .finally(release);
  return id;
}

/** Non-streaming: waits until every answer has ended, and answers the stored comparison. */
export async function createComparison(ctx: ComparisonStartCtx, input: InputOf<'comparisons.create'>): Promise<Comparison> {
  const id = startComparison(ctx, input);
  await ctx.runtime.hub.finished(id);
  return view(ctx, ownComparison(ctx, id));
}

/** Streaming: the live events of every answer, each naming its `response_id`. */
export function streamComparison(ctx: ComparisonStartCtx, input: InputOf<'comparisons.create'>): AsyncIterable<Sequenced<ComparisonEvent>> {
  const id = startComparison(ctx, input);
  return ctx.runtime.hub.subscribe<ComparisonEvent>(id) ?? replayStored(ctx, id);
}

/** Re-attach: live or retained events after `last_event_id`; an older comparison is replayed from storage. */
export function attachComparison(ctx: ComparisonCtx, input: InputOf<'comparisons.stream'>): AsyncIterable<Sequenced<ComparisonEvent>> {
  const row = ownComparison(ctx, input.id);
  return ctx.runtime.hub.subscribe<ComparisonEvent>(row.id, input.last_event_id ?? -1) ?? replayStored(ctx, row.id);
}

/** A finished comparison as a stream, for when the live log is gone already. */
async function* replayStored(ctx: ComparisonCtx, id: string): AsyncIterable<Sequenced<ComparisonEvent>> {
  const comparison = view(ctx, ownComparison(ctx, id));
  yield { id: 0, event: 'comparison.created', data: { comparison } };
  yield { id: 1, event: 'comparison.completed', data: { comparison } };
}

export function listComparisons(ctx: ComparisonCtx, input: InputOf<'comparisons.list'>) {
  const { comparisons } = ctx.repos;
  const page = comparisons.page(ctx.caller.user.id, input.limit, input.cursor);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  return {
    data: page.rows.map((row) => summaryView(row, responsesOf(ctx, row), comparisons.vote(row.id, ctx.caller.user.id))),
    next_cursor: page.next_cursor,
  };
}

export function getComparison(ctx: ComparisonCtx, input: InputOf<'comparisons.get'>): Comparison {
  return view(ctx, ownComparison(ctx, input.id));
}

export async function cancelComparison(ctx: AuthedSlice<'repos' | 'now', 'hub' | 'notices'>, input: InputOf<'comparisons.cancel'>): Promise<Comparison> {
  const row = ownComparison(ctx, input.id);
  // Cancelling a finished comparison changes nothing; the answers' statuses say how each ended.
  // One another instance writes is stopped there (the team server).
  await cancelAnywhere(ctx.runtime, row.id, () => ctx.repos.comparisons.responses(row.id).some((r) => r.status === 'streaming'));
  return view(ctx, row);
}

export function voteComparison(ctx: ComparisonCtx, input: InputOf<'comparisons.vote'>): Comparison {
  const { comparisons } = ctx.repos;
  const row = ownComparison(ctx, input.id);
  const responses = responsesOf(ctx, row);
  if (responses.some((r) => r.status === 'streaming')) throw new ServiceError('conflict', 'The answers are still being written; vote once they have ended.');
  if (input.winner_response_id !== undefined && !responses.some((r) => r.id === input.winner_response_id)) {
    throw new ServiceError('invalid_argument', `winner_response_id: ${input.winner_response_id} is not an answer of this comparison.`, [
      { path: 'winner_response_id', message: 'not an answer of this comparison' },
    ]);
  }
  const winner = responses.find((r) => r.id === input.winner_response_id);
  if (winner && winner.status !== 'complete') {
    throw new ServiceError('invalid_argument', `winner_response_id: ${winner.id} did not complete (${winner.status}); only a complete answer can win.`, [
      { path: 'winner_response_id', message: 'not a complete answer' },
    ]);
  }
  const vote = {
    id: newId('vot'),
    comparison_id: row.id,
    user_id: ctx.caller.user.id,
    outcome: input.winner_response_id !== undefined ? ('winner' as const) : (input.outcome ?? 'tie'),
    winner_response_id: input.winner_response_id ?? null,
    created_at: isoNow(ctx),
  };
  ctx.repos.transaction(() => {
    if (comparisons.vote(row.id, ctx.caller.user.id)) throw new ServiceError('conflict', 'You have already voted on this comparison.');
    comparisons.insertVote(vote);
    comparisons.touch(row.id, vote.created_at);
  });
  return view(ctx, comparisons.get(row.id) as ComparisonRecord);
}

export function leaderboard(ctx: CatalogCtx) {
  return leaderboardOf(ctx);
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const comparisonHandlers: HandlersFor<'comparisons'> = {
  'comparisons.create': createComparison,
  'comparisons.list': listComparisons,
  'comparisons.leaderboard': leaderboard,
  'comparisons.get': getComparison,
  'comparisons.stream': () => {
    throw new Error('comparisons.stream only streams');
  },
  'comparisons.cancel': cancelComparison,
  'comparisons.vote': voteComparison,
};

/** The streaming side of this domain's operations that stream. */
export const comparisonStreams: Pick<StreamHandlers, 'comparisons.create' | 'comparisons.stream'> = {
  'comparisons.create': streamComparison,
  'comparisons.stream': attachComparison,
};
