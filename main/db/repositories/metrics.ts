import type { Db } from '../connection.js';

/** A half-open period `[from, to)` of ISO timestamps, and whose activity counts. */
export interface MetricsScope {
  organization_id: string;
  from: string;
  to: string;
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
 * Usage sums over a period, scoped to one organization. Each query is a range scan of a covering
 * index on `created_at` (migration 090), joined to users by primary key for the organization.
 */
export function createMetricsRepo(db: Db) {
  const tokensByUser = db.prepare<MetricsScope, { user_id: string; model_calls: number; input_tokens: number; output_tokens: number }>(
    `SELECT e.user_id, COUNT(*) AS model_calls, SUM(e.input_tokens) AS input_tokens, SUM(e.output_tokens) AS output_tokens
       FROM usage_events e JOIN users u ON u.id = e.user_id
      WHERE e.created_at >= @from AND e.created_at < @to AND u.organization_id = @organization_id
      GROUP BY e.user_id`,
  );
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
  const byModel = db.prepare<MetricsScope, ModelCounts>(
    `SELECT e.model_id, COUNT(*) AS calls, SUM(e.input_tokens) AS input_tokens, SUM(e.output_tokens) AS output_tokens
       FROM usage_events e JOIN users u ON u.id = e.user_id
      WHERE e.created_at >= @from AND e.created_at < @to AND u.organization_id = @organization_id
      GROUP BY e.model_id ORDER BY input_tokens + output_tokens DESC, e.model_id`,
  );
  const tokensByDay = db.prepare<MetricsScope, { day: string; input_tokens: number; output_tokens: number }>(
    `SELECT substr(e.created_at, 1, 10) AS day, SUM(e.input_tokens) AS input_tokens, SUM(e.output_tokens) AS output_tokens
       FROM usage_events e JOIN users u ON u.id = e.user_id
      WHERE e.created_at >= @from AND e.created_at < @to AND u.organization_id = @organization_id
      GROUP BY day`,
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
      for (const r of tokensByUser.all(scope)) Object.assign(row(r.user_id), { model_calls: r.model_calls, input_tokens: r.input_tokens, output_tokens: r.output_tokens });
      for (const r of messagesByUser.all(scope)) row(r.user_id).messages = r.messages;
      for (const r of chatsByUser.all(scope)) row(r.user_id).chats = r.chats;
      for (const r of uploadsByUser.all(scope)) row(r.user_id).uploads = r.uploads;
      return out;
    },
    perModel: (scope: MetricsScope) => byModel.all(scope),
    /** Days with activity only; the caller fills the gaps. */
    perDay(scope: MetricsScope): Map<string, DayCounts> {
      const out = new Map<string, DayCounts>();
      for (const r of tokensByDay.all(scope)) out.set(r.day, { day: r.day, messages: 0, input_tokens: r.input_tokens, output_tokens: r.output_tokens });
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
