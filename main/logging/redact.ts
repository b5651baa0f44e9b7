/**
 * Secrets never reach a log line: API keys and tokens (`pk_`, `ut_`, `at_`, `sk-`…), bearer
 * credentials, credentials inside URLs and secret-looking query parameters are masked in any text.
 */
const PATTERNS: [RegExp, string][] = [
  [/\b(Bearer\s+)[^\s"',]+/gi, '$1[redacted]'],
  [/\b(pk|ut|at)_[A-Za-z0-9]{6,}/g, '$1_[redacted]'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]'],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, '$1[redacted]@'],
  [/([?&](?:api[_-]?key|key|token|access_token|signature|password)=)[^&\s"']+/gi, '$1[redacted]'],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

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
