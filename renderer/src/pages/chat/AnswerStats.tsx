import { useIntl } from 'react-intl';
import type { Message } from './types.js';

/**
 * Tokens per second while writing: the output after the first token over the time after it (the
 * wait for the first token is shown on its own, as LM Studio does). Null when there is no such
 * time to divide by (a one-chunk answer, an answer stored before its timing was kept).
 */
export function tokensPerSecond(message: Pick<Message, 'usage' | 'first_token_ms' | 'latency_ms'>): number | null {
  const { usage, first_token_ms: first, latency_ms: total } = message;
  if (!usage || first == null || total == null || usage.output_tokens <= 0) return null;
  const writingMs = total - first;
  return writingMs > 0 ? (usage.output_tokens * 1000) / writingMs : null;
}

/** The small muted line under a finished answer: its speed, its wait for the first token and its tokens. */
export function AnswerStats({ message }: { message: Message }) {
  const intl = useIntl();
  if (message.status !== 'complete') return null;
  const speed = tokensPerSecond(message);
  // Older servers and answers stored before the timing was kept send no figures: `== null` covers both.
  const first = message.first_token_ms;
  const parts: Array<{ key: string; text: string }> = [];
  if (speed !== null) {
    parts.push({ key: 'speed', text: intl.formatMessage({ id: 'chat.stats.tokensPerSecond' }, { rate: intl.formatNumber(speed, { maximumFractionDigits: speed < 10 ? 1 : 0 }) }) });
  }
  if (first != null) {
    parts.push({ key: 'first', text: intl.formatMessage({ id: 'chat.stats.firstToken' }, { seconds: intl.formatNumber(first / 1000, { maximumFractionDigits: first < 10_000 ? 2 : 1 }) }) });
  }
  if (message.usage) {
    parts.push({
      key: 'tokens',
      text: intl.formatMessage({ id: 'chat.stats.tokens' }, { input: intl.formatNumber(message.usage.input_tokens), output: intl.formatNumber(message.usage.output_tokens) }),
    });
  }
  if (parts.length === 0) return null;
  return (
    <p className="answer-stats">
      {parts.map((p) => (
        <span key={p.key}>{p.text}</span>
      ))}
    </p>
  );
}
