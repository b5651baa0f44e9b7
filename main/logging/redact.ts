/**
 * Secrets never reach a log line: the same redaction as upstream errors shown to people
 * (core/secrets/redact.ts), applied to every string of a log entry, and values under credential-named
 * keys dropped whole.
 */
import { redactSecrets } from '../core/platform/secrets/redact.js';

export { redactSecrets };

/** A copy of `value` with every string redacted (objects and arrays to a bounded depth). */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  // Errors keep their shape: the logger's error serializer redacts their message and stack.
  if ('stack' in value && 'message' in value) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = /^(authorization|api_?key|apikey|password|secret|token)$/i.test(key) ? '[redacted]' : redactDeep(v, depth + 1);
  }
  return out;
}
