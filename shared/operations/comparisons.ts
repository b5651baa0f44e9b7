import { z } from 'zod';
import { Citation, MessageStatus, Usage } from '../events.js';
import { ErrorCodeSchema, PageQuery, Timestamp, modelText, page, prefixedId } from './common.js';
import { defineOperation } from './define.js';

/** Fewest and most models one comparison asks. */
export const COMPARISON_MIN_MODELS = 2;
export const COMPARISON_MAX_MODELS = 8;
/** Longest prompt a comparison takes (characters). */
export const COMPARISON_PROMPT_MAX = 20_000;

const ComparisonId = prefixedId('cmp');

/**
 * One model's answer in a comparison. In blind mode `model_id` and `model_name` are null until the
 * comparison has a vote; `label` (A, B, …) names the answer meanwhile. `model_name` is the name the
 * model had when it answered, so a deleted model's answers keep it.
 */
export const ComparisonResponse = z.object({
  id: z.string(),
  label: z.string(),
  model_id: z.string().nullable(),
  model_name: z.string().nullable(),
  content: z.string(),
  status: MessageStatus,
  /** From the request to the end of this answer; null while it streams. */
  latency_ms: z.number().int().nullable(),
  /** From the request to this answer's first token; null before it. */
  first_token_ms: z.number().int().nullable(),
  usage: Usage.nullable(),
  error: z.object({ code: ErrorCodeSchema, detail: z.string() }).nullable(),
});
export type ComparisonResponse = z.infer<typeof ComparisonResponse>;

export const VoteOutcome = z.enum(['winner', 'tie', 'both_bad']);
export type VoteOutcome = z.infer<typeof VoteOutcome>;

export const Vote = z.object({
  id: z.string(),
  outcome: VoteOutcome,
  /** Set when `outcome` is `winner`. */
  winner_response_id: z.string().nullable(),
  created_at: Timestamp,
});
export type Vote = z.infer<typeof Vote>;

export const Comparison = z.object({
  id: z.string(),
  prompt: z.string(),
  blind: z.boolean(),
  dataset_ids: z.array(z.string()),
  /** The dataset passages every model was given, numbered as the answers cite them. */
  citations: z.array(Citation),
  /** `streaming` while any answer streams, then `complete` (each answer has its own status). */
  status: z.enum(['streaming', 'complete']),
  responses: z.array(ComparisonResponse),
  /** The caller's vote; null until cast. */
  vote: Vote.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Comparison = z.infer<typeof Comparison>;

/** A comparison as listed: without the answers' text. */
export const ComparisonSummary = Comparison.omit({ responses: true, citations: true }).extend({
  responses: z.array(ComparisonResponse.pick({ id: true, label: true, model_id: true, model_name: true, status: true })),
});
export type ComparisonSummary = z.infer<typeof ComparisonSummary>;

/**
 * The events of a comparison stream, every one after the first naming its `response_id`:
 * `comparison.created`, then interleaved `delta`s of all answers, one `response.completed` per
 * answer (whatever its end: complete, error with the partial text, cancelled), and last
 * `comparison.completed`.
 */
export const ComparisonEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('comparison.created'), data: z.object({ comparison: Comparison }) }),
  z.object({ event: z.literal('delta'), data: z.object({ response_id: z.string(), content: z.string() }) }),
  z.object({ event: z.literal('response.completed'), data: z.object({ response_id: z.string(), response: ComparisonResponse }) }),
  z.object({ event: z.literal('comparison.completed'), data: z.object({ comparison: Comparison }) }),
]);
export type ComparisonEvent = z.infer<typeof ComparisonEvent>;

const Prompt = modelText(COMPARISON_PROMPT_MAX);

const ModelIds = z
  .array(z.string().max(64).regex(/^mdl_[A-Za-z0-9]+$/, 'must be a model id (mdl_…)'))
  .min(COMPARISON_MIN_MODELS, `compare at least ${COMPARISON_MIN_MODELS} models`)
  .max(COMPARISON_MAX_MODELS, `compare at most ${COMPARISON_MAX_MODELS} models`)
  .refine((ids) => new Set(ids).size === ids.length, 'must not name a model twice');

export const createComparison = defineOperation({
  name: 'comparisons.create',
  summary:
    'Sends one prompt to 2–8 models at once and stores their answers side by side. With `blind: true` the models are hidden until a ' +
    'vote is cast. Streams as SSE with `stream: true` or `Accept: text/event-stream`; every event names its `response_id`.',
  tag: 'Comparisons',
  access: 'user',
  callsModels: true,
  http: { method: 'POST', path: '/comparisons', status: 201 },
  input: z.object({
    prompt: Prompt,
    model_ids: ModelIds,
    dataset_ids: z.array(prefixedId('ds')).max(20).optional(),
    stream: z.boolean().default(false),
    blind: z.boolean().default(false),
  }),
  output: Comparison,
  streaming: { mode: 'optional', event: ComparisonEvent },
});

export const listComparisons = defineOperation({
  name: 'comparisons.list',
  summary: "The caller's comparisons, newest first, without the answers' text.",
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'GET', path: '/comparisons', status: 200 },
  input: PageQuery,
  output: page(ComparisonSummary),
});

export const getComparison = defineOperation({
  name: 'comparisons.get',
  summary: 'One of the caller\'s comparisons with every answer as stored (text saved while it streams).',
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'GET', path: '/comparisons/{id}', status: 200 },
  input: z.object({ id: ComparisonId }),
  output: Comparison,
});

export const attachComparison = defineOperation({
  name: 'comparisons.stream',
  summary:
    'Re-attaches to a comparison: its events from the start, or after `Last-Event-ID` (or `last_event_id`), live while its answers are ' +
    'written; a finished one is replayed from storage.',
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'GET', path: '/comparisons/{id}/stream', status: 200 },
  input: z.object({ id: ComparisonId, last_event_id: z.coerce.number().int().min(-1).optional() }),
  output: z.null(),
  streaming: { mode: 'always', event: ComparisonEvent },
});

export const cancelComparison = defineOperation({
  name: 'comparisons.cancel',
  summary: 'Stops every answer still streaming; the text produced so far is kept with status `cancelled`.',
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'POST', path: '/comparisons/{id}/cancel', status: 200 },
  input: z.object({ id: ComparisonId }),
  output: Comparison,
});

export const voteComparison = defineOperation({
  name: 'comparisons.vote',
  summary:
    'Votes on a finished comparison: `winner_response_id` names the best answer, or `outcome` is `tie` or `both_bad`. One vote per ' +
    'comparison (a second answers 409). A blind comparison reveals its models in the answer.',
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'POST', path: '/comparisons/{id}/votes', status: 201 },
  input: z
    .object({
      id: ComparisonId,
      winner_response_id: z.string().max(64).regex(/^rsp_[A-Za-z0-9]+$/, 'must be a response id (rsp_…)').optional(),
      outcome: z.enum(['tie', 'both_bad']).optional(),
    })
    .refine((v) => (v.winner_response_id === undefined) !== (v.outcome === undefined), {
      message: 'give exactly one of winner_response_id or outcome',
      path: ['outcome'],
    }),
  output: Comparison,
});

export const LeaderboardEntry = z.object({
  /** 1 + the number of models rated higher to the whole point: equal ratings share a rank (1, 2, 2, 2, 5). */
  rank: z.number().int(),
  model_id: z.string(),
  /** The model's current name, or the last name it answered under if it was deleted. */
  model_name: z.string(),
  /** Bradley–Terry strength on an Elo-like scale (1000 = average; +400 ≈ 10:1 odds). */
  rating: z.number(),
  /** 95% bootstrap interval of `rating`. */
  ci_low: z.number(),
  ci_high: z.number(),
  /** Votes on comparisons this model took part in, by how they went for it. */
  votes: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  ties: z.number().int(),
  both_bad: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const leaderboard = defineOperation({
  name: 'comparisons.leaderboard',
  summary:
    "Ratings of the models from every vote in the caller's organization: a Bradley–Terry fit over pairwise outcomes (a winner beats " +
    'each other answer; a tie is half a win each way; `both_bad` is counted but not ranked), with 95% bootstrap intervals.',
  tag: 'Comparisons',
  access: 'user',
  http: { method: 'GET', path: '/comparisons/leaderboard', status: 200 },
  input: z.object({}),
  output: z.object({
    data: z.array(LeaderboardEntry),
    total_votes: z.number().int(),
    method: z.literal('bradley_terry'),
    bootstrap_samples: z.number().int(),
  }),
});
