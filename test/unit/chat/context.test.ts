import { describe, expect, it } from 'vitest';
import { buildTurns } from '../../../main/core/answering/turns.js';
import type { MessageRecord } from '../../../main/db/repositories/messages.js';
import { REPLY_RESERVE_TOKENS, messageTokens } from '../../../main/core/platform/tokens.js';

let seq = 0;
const row = (role: 'user' | 'assistant', content: string): MessageRecord => ({
  seq: ++seq, id: `msg_${seq}`, thread_id: 'thr_1', parent_id: null, role, content, status: 'complete', model_id: null, routing: null, citations: [],
  input_tokens: null, output_tokens: null, first_token_ms: null, latency_ms: null, error_code: null, error_detail: null, created_at: '', updated_at: '',
});

describe('buildTurns', () => {
  it('sends the system prompt first, then every message with text, oldest first', () => {
    const turns = buildTurns('Be kind.', [row('user', 'a'), row('assistant', ''), row('assistant', 'b'), row('user', 'c')], 100_000);
    expect(turns).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
  });

  it('drops the oldest turns first when the context is too small, always keeping the newest message and starting with the user', () => {
    const long = 'x'.repeat(4000);
    const history = [row('user', long), row('assistant', long), row('user', long), row('assistant', long), row('user', 'latest')];
    const context = REPLY_RESERVE_TOKENS + 3 * messageTokens(long);
    const turns = buildTurns(null, history, context);
    expect(turns.at(-1)).toEqual({ role: 'user', content: 'latest' });
    expect(turns[0]?.role).toBe('user');
    expect(turns.length).toBeLessThan(history.length);
    expect(turns.reduce((n, t) => n + messageTokens(t.content), 0)).toBeLessThanOrEqual(context - REPLY_RESERVE_TOKENS);
  });

  it('keeps the newest message even when it alone is larger than the context, cut to fit it', () => {
    const huge = 'y'.repeat(100_000);
    const turns = buildTurns(null, [row('user', 'old'), row('user', huge)], 2048);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.content.startsWith('yyyy')).toBe(true);
    expect(messageTokens(turns[0]?.content ?? '')).toBeLessThanOrEqual(2048 - REPLY_RESERVE_TOKENS);
  });
});
