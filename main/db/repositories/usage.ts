import type { SqlDb as Db } from '../sql.js';

export interface UsageEvent {
  user_id: string;
  model_id: string;
  source: 'chat' | 'openai' | 'comparison';
  message_id: string | null;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
}

export function createUsageRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO usage_events (user_id, model_id, source, message_id, input_tokens, output_tokens, created_at)
     VALUES (@user_id, @model_id, @source, @message_id, @input_tokens, @output_tokens, @created_at)`,
  );
  const byUser = db.prepare<[string], UsageEvent>('SELECT user_id, model_id, source, message_id, input_tokens, output_tokens, created_at FROM usage_events WHERE user_id = ? ORDER BY id');
  const reads = { listByUser: (userId: string) => byUser.all(userId) };
  const writes = { record: (event: UsageEvent) => void insert.run(event) };
  return { ...reads, ...writes };
}
