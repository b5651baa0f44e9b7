import { describe, expect, it } from 'vitest';
import { tokensPerSecond } from '../../../renderer/src/pages/chat/AnswerStats.js';

const usage = { input_tokens: 120, output_tokens: 380 };

describe('tokensPerSecond', () => {
  it('counts the output over the time after the first token, as LM Studio does', () => {
    expect(tokensPerSecond({ usage, first_token_ms: 300, latency_ms: 9_300 })).toBeCloseTo(380 / 9, 6);
  });

  it('gives no speed without a writing time or figures to divide (one chunk, an older answer, no tokens)', () => {
    expect(tokensPerSecond({ usage, first_token_ms: 300, latency_ms: 300 })).toBeNull();
    expect(tokensPerSecond({ usage, first_token_ms: null, latency_ms: null })).toBeNull();
    expect(tokensPerSecond({ usage: null, first_token_ms: 10, latency_ms: 500 })).toBeNull();
    expect(tokensPerSecond({ usage: { input_tokens: 1, output_tokens: 0 }, first_token_ms: 10, latency_ms: 500 })).toBeNull();
  });
});
