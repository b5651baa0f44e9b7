import type { SqlDb as Db } from '../sql.js';

/** A half-open period `[from, to)` of ISO timestamps, and whose activity counts. */
export interface MetricsScope {
  organization_id: string;
  from: string;
  to: string;
}

/** The period split at UTC midnights: whole days `[first_full, end_full)`, and the partial edges as times. */
interface UsageScope extends MetricsScope {
  first_full: string;
  end_full: string;
  head_end: string;
  tail_start: string;
}

const MIDNIGHT = 'T00:00:00.000Z';

function splitDays(scope: MetricsScope): UsageScope {
  const fromDay = scope.from.slice(0, 10);
  const firstFull = scope.from.slice(10) === MIDNIGHT ? fromDay : new Date(Date.parse(fromDay) + 86_400_000).toISOString().slice(0, 10);
  const endFull = scope.to.slice(0, 10);
  // No whole day inside: everything comes from the events.
  if (firstFull >= endFull) return { ...scope, first_full: endFull, end_full: endFull, head_end: scope.to, tail_start: scope.to };
  return { ...scope, first_full: firstFull, end_full: endFull, head_end: `${firstFull}${MIDNIGHT}`, tail_start: `${endFull}${MIDNIGHT}` };
}

export interface UserCounts {
  user_id: string;
  chats: number;
  messages: number;
  input_tokens: number;
  output_tokens: number;
  uploads: number;
  model_calls: number;
}

export interface ModelCounts {
  model_id: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
}

export interface DayCounts {
  day: string;
  messages: number;
  input_tokens: number;
  output_tokens: number;
}

/**
 * Usage sums over a period, scoped to one organization. Tokens come from the daily rollup and the
 * edges of the period; the other counts are range scans of covering indexes on `created_at`
 * (migration 090), joined to users by primary key for the organization.
 */
export function createMetricsRepo(db: Db) {
  // Model calls in the period: whole days from the daily rollups, the partial first and last days
  // from the events themselves (UNION ALL of both, then grouped).
  const edges = (columns: string) => `
      SELECT ${columns} FROM usage_events e
       WHERE ((e.created_at >= @from AND e.created_at < @head_end) OR (e.created_at >= @tail_start AND e.created_at < @to))
         AND e.user_id IN (SELECT id FROM users WHERE organization_id = @organization_id)`;
  const tokensByUser = db.prepare<UsageScope, { user_id: string; model_calls: number; input_tokens: number; output_tokens: number }>(
    `SELECT user_id, SUM(calls) AS model_calls, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens FROM (
       SELECT d.user_id, d.calls, d.input_tokens, d.output_tokens FROM usage_user_daily d
        WHERE d.user_id IN (SELECT id FROM users WHERE organization_id = @organization_id) AND d.day >= @first_full AND d.day < @end_full
       UNION ALL ${edges('e.user_id, 1, e.input_tokens, e.output_tokens')}
     ) GROUP BY user_id`,
  );
  const byModelAndDay = (group: 'model_id' | 'day') => `
    SELECT ${group}, SUM(calls) AS calls, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens FROM (
      SELECT d.model_id, d.day, d.calls, d.input_tokens, d.output_tokens FROM usage_model_daily d
       WHERE d.organization_id = @organization_id AND d.day >= @first_full AND d.day < @end_full
      UNION ALL ${edges('e.model_id, substr(e.created_at, 1, 10), 1, e.input_tokens, e.output_tokens')}
    ) GROUP BY ${group}`;
  const byModel = db.prepare<UsageScope, ModelCounts>(`${byModelAndDay('model_id')} ORDER BY SUM(input_tokens) + SUM(output_tokens) DESC, model_id`);
  const tokensByDay = db.prepare<UsageScope, { day: string; input_tokens: number; output_tokens: number }>(byModelAndDay('day'));
  const messagesByUser = db.prepare<MetricsScope, { user_id: string; messages: number }>(
    `SELECT t.user_id, COUNT(*) AS messages
       FROM messages m JOIN threads t ON t.id = m.thread_id JOIN users u ON u.id = t.user_id
      WHERE m.role = 'user' AND m.created_at >= @from AND m.created_at < @to AND u.organization_id = @organization_id
      GROUP BY t.user_id`,
  );
  const chatsByUser = db.prepare<MetricsScope, { user_id: string; chats: number }>(
    `SELECT t.user_id, COUNT(*) AS chats
       FROM threads t JOIN users u ON u.id = t.user_id
      WHERE t.created_at >= @from AND t.created_at < @to AND u.organization_id = @organization_id
      GROUP BY t.user_id`,
  );
  const uploadsByUser = db.prepare<MetricsScope, { user_id: string; uploads: number }>(
    `SELECT a.user_id, COUNT(*) AS uploads
       FROM artifacts a JOIN users u ON u.id = a.user_id
      WHERE a.created_at >= @from AND a.created_at < @to AND u.organization_id = @organization_id
      GROUP BY a.user_id`,
  );
  const messagesByDay = db.prepare<MetricsScope, { day: string; messages: number }>(
    `SELECT substr(m.created_at, 1, 10) AS day, COUNT(*) AS messages
       FROM messages m JOIN threads t ON t.id = m.thread_id JOIN users u ON u.id = t.user_id
      WHERE m.role = 'user' AND m.created_at >= @from AND m.created_at < @to AND u.organization_id = @organization_id
      GROUP BY day`,
  );

  return {
    /** Per-user counts, only for users who did something in the period. */
    perUser(scope: MetricsScope): Map<string, UserCounts> {
      const out = new Map<string, UserCounts>();
      const row = (id: string) => {
        let r = out.get(id);
        if (!r) out.set(id, (r = { user_id: id, chats: 0, messages: 0, input_tokens: 0, output_tokens: 0, uploads: 0, model_calls: 0 }));
        return r;
      };
      for (const r of tokensByUser.all(splitDays(scope))) Object.assign(row(r.user_id), { model_calls: r.model_calls, input_tokens: r.input_tokens, output_tokens: r.output_tokens });
      for (const r of messagesByUser.all(scope)) row(r.user_id).messages = r.messages;
      for (const r of chatsByUser.all(scope)) row(r.user_id).chats = r.chats;
      for (const r of uploadsByUser.all(scope)) row(r.user_id).uploads = r.uploads;
      return out;
    },
    perModel: (scope: MetricsScope) => byModel.all(splitDays(scope)),
    /** Days with activity only; the caller fills the gaps. */
    perDay(scope: MetricsScope): Map<string, DayCounts> {
      const out = new Map<string, DayCounts>();
      for (const r of tokensByDay.all(splitDays(scope))) out.set(r.day, { day: r.day, messages: 0, input_tokens: r.input_tokens, output_tokens: r.output_tokens });
      for (const r of messagesByDay.all(scope)) {
        const d = out.get(r.day);
        if (d) d.messages = r.messages;
        else out.set(r.day, { day: r.day, messages: r.messages, input_tokens: 0, output_tokens: 0 });
      }
      return out;
    },
  };
}

export type MetricsRepo = ReturnType<typeof createMetricsRepo>;
