/**
 * Credentials out of text that leaves the server's hands: upstream error messages (stored on
 * messages, returned to members, shown in tests of a model) and URLs shown to people. Upstreams
 * echo what they were sent — `Incorrect API key provided: sk-…`, a proxy quoting the
 * Authorization header, an URL with `?key=` — so this removes anything shaped like a credential,
 * plus the exact secrets the caller knows were sent.
 */
const REDACTED = '[redacted]';

/** Query parameters that carry credentials in URLs (Google's `key`, signed URLs' `sig`, …). */
const SECRET_PARAMS = /^(?:key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|secret|client[-_]?secret|password|passwd|pwd|sig|signature|x-amz-signature|x-goog-signature|code)$/i;

const PATTERNS: Array<[RegExp, string]> = [
  // Authorization: Bearer xyz / Basic xyz (the scheme stays, the credential goes).
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${REDACTED}`],
  // Provider keys: OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…), Groq (gsk_…), Google (AIza…), HF (hf_…), xAI (xai-…).
  [/\b(sk|gsk|xai)([-_])[A-Za-z0-9_-]{8,}/g, `$1$2${REDACTED}`],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\bhf_[A-Za-z0-9]{16,}/g, REDACTED],
  // Parley's own secrets (the prefix stays: it says what kind of credential was there).
  [/\b(pk|ut|at)_[A-Za-z0-9]{6,}/g, `$1_${REDACTED}`],
  // `api_key: "…"`, `x-api-key=…`, `"password": "…"` in JSON, headers or prose.
  [/\b((?:x-)?api[-_]?key|apikey|access[-_]?token|client[-_]?secret|password|secret|authorization)(["']?\s*[:=]\s*["']?)(?!\[redacted\]|(?:Bearer|Basic|Token)\s)[^\s"',;}&]{3,}/gi, `$1$2${REDACTED}`],
];

/**
 * `scheme://user:pass@host/…?key=…` → `scheme://[redacted]@host/…?key=[redacted]`, for every URL in
 * `text`, whatever its scheme (`postgres://u:p@…` too).
 */
function redactUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => {
    let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, `$1${REDACTED}@`);
    out = out.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (whole, sep: string, name: string) => (SECRET_PARAMS.test(decodeSafe(name)) ? `${sep}${name}=${REDACTED}` : whole));
    return out;
  });
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Text with every credential-shaped substring, and each of `known` secrets, replaced by `[redacted]`. */
export function redactSecrets(text: string, known: ReadonlyArray<string | null | undefined> = []): string {
  let out = text;
  for (const secret of known) {
    // Short values would redact ordinary words; real keys are long.
    if (secret && secret.length >= 6) out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
  }
  out = redactUrls(out);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** An endpoint as an admin sees it: the whole URL, minus user info and secret query values. */
export function endpointForAdmin(url: string | null): string | null {
  return url === null ? null : redactUrls(url);
}

/** An endpoint as a member sees it: scheme, host and port only. */
export function endpointForMember(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether two endpoint URLs share an origin (scheme, host, port): a stored key may go only where it was meant to. */
export function sameOrigin(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
