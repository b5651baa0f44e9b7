import { z } from 'zod';
import { Role, Timestamp } from './common.js';
import { defineOperation } from './define.js';

/** The longest period one metrics request may cover: a year and a day (leap years included). */
export const METRICS_MAX_DAYS = 366;
/** The period when `from` is not given: this many days before `to`. */
export const METRICS_DEFAULT_DAYS = 30;

/** What was done in the period; every figure counts only what happened inside it. */
const Counts = {
  /** Threads started. */
  chats: z.number().int(),
  /** Messages the users sent (their answers are counted as tokens, not messages). */
  messages: z.number().int(),
  /** Tokens of every model call: chat, comparisons and the OpenAI-compatible facade. */
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** Files uploaded into knowledge bases, whatever became of them. */
  uploads: z.number().int(),
};

export const UsageTotals = z.object({
  ...Counts,
  /** Model calls (each counted once, whichever feature made it). */
  model_calls: z.number().int(),
  /** Users who did anything counted here. */
  active_users: z.number().int(),
});

export const UserUsage = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: Role,
    organization: z.object({ id: z.string(), name: z.string() }),
  }),
  ...Counts,
});

export const ModelUsage = z.object({
  model_id: z.string(),
  /** The model's name, or its id when it was deleted since. */
  name: z.string(),
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
});

export const DayUsage = z.object({
  /** A UTC day, `YYYY-MM-DD`. Days without activity are listed with zeros. */
  day: z.string(),
  messages: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
});

export const Metrics = z.object({
  from: Timestamp,
  to: Timestamp,
  totals: UsageTotals,
  /** Every user of the organization, the busiest (most tokens) first. */
  per_user: z.array(UserUsage),
  /** Models that were called, the busiest first. */
  per_model: z.array(ModelUsage),
  /** One entry per UTC day of the period, oldest first. */
  per_day: z.array(DayUsage),
});
export type Metrics = z.infer<typeof Metrics>;

const Instant = z.iso.datetime({ offset: true });

export const metrics = defineOperation({
  name: 'admin.metrics',
  summary:
    'Usage of the caller’s organization in `[from, to)`: totals, per user, per model and per UTC day. Defaults to the last 30 days; ' +
    '`from` must be before `to` and the period at most 366 days (400 otherwise).',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'GET', path: '/admin/metrics', status: 200 },
  input: z.object({
    from: Instant.optional().describe('Start of the period, inclusive (ISO-8601). Default: 30 days before `to`.'),
    to: Instant.optional().describe('End of the period, exclusive (ISO-8601). Default: now.'),
  }),
  output: Metrics,
});
