import { ServiceError } from '../../../../shared/errors.js';
import { METRICS_DEFAULT_DAYS, METRICS_MAX_DAYS, type Metrics } from '../../../../shared/operations/metrics.js';
import type { UserCounts } from '../../../db/repositories/metrics.js';
import { userView } from '../../platform/auth/views.js';
import type { AuthedSlice } from '../../platform/context.js';
import { allModels } from '../../models/catalog/catalog.js';
import type { InputOf } from '../../platform/operation-handlers.js';

const DAY_MS = 24 * 3600 * 1000;

/** `[from, to)` from the query: defaults, order and size checked; stored timestamps are UTC ISO, so the bounds are too. */
export function metricsPeriod(now: Date, input: InputOf<'admin.metrics'>): { from: Date; to: Date } {
  const to = input.to ? new Date(input.to) : now;
  const from = input.from ? new Date(input.from) : new Date(to.getTime() - METRICS_DEFAULT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw new ServiceError('invalid_argument', '`from` must be before `to`.', [{ path: 'from', message: 'must be before to' }]);
  }
  if (to.getTime() - from.getTime() > METRICS_MAX_DAYS * DAY_MS) {
    throw new ServiceError('invalid_argument', `A period covers at most ${METRICS_MAX_DAYS} days.`, [{ path: 'to', message: `at most ${METRICS_MAX_DAYS} days after from` }]);
  }
  return { from, to };
}

/** Every UTC day the period touches, `YYYY-MM-DD`, oldest first. */
function daysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  const last = new Date(to.getTime() - 1).toISOString().slice(0, 10);
  for (let t = Date.parse(from.toISOString().slice(0, 10)); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) break;
  }
  return days;
}

const EMPTY: Omit<UserCounts, 'user_id'> = { chats: 0, messages: 0, input_tokens: 0, output_tokens: 0, uploads: 0, model_calls: 0 };

/** Usage of the caller's organization in a period: totals, per user, per model and per day. */
export function metrics(ctx: AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health'>, input: InputOf<'admin.metrics'>): Metrics {
  const { from, to } = metricsPeriod(ctx.now(), input);
  const scope = { organization_id: ctx.caller.user.organization_id, from: from.toISOString(), to: to.toISOString() };
  const { perUser, perModel, perDay } = ctx.repos.transaction(() => ({
    perUser: ctx.repos.metrics.perUser(scope),
    perModel: ctx.repos.metrics.perModel(scope),
    perDay: ctx.repos.metrics.perDay(scope),
  }));

  const per_user = ctx.repos.users
    .listByOrganization(scope.organization_id)
    .map((u) => {
      const { user_id: _id, model_calls: _calls, ...counts } = perUser.get(u.id) ?? { user_id: u.id, ...EMPTY };
      return { user: userView(u), ...counts };
    })
    .sort((a, b) => b.input_tokens + b.output_tokens - (a.input_tokens + a.output_tokens) || b.messages - a.messages || a.user.name.localeCompare(b.user.name));

  const totals = { ...EMPTY, active_users: perUser.size };
  for (const counts of perUser.values()) {
    for (const key of Object.keys(EMPTY) as Array<keyof typeof EMPTY>) totals[key] += counts[key];
  }

  const names = new Map(allModels(ctx).map((m) => [m.id, m.name]));
  return {
    from: scope.from,
    to: scope.to,
    totals,
    per_user,
    per_model: perModel.map((m) => ({ ...m, name: names.get(m.model_id) ?? m.model_id })),
    per_day: daysOf(from, to).map((day) => perDay.get(day) ?? { day, messages: 0, input_tokens: 0, output_tokens: 0 }),
  };
}
