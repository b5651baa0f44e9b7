/**
 * The HTTP side of a model download: one request for the bytes from an offset, redirects followed
 * by hand so that what each hop states about the file is not lost. Hugging Face answers a
 * `/resolve/` URL with a redirect to its CDN that carries `X-Linked-Etag` (the file's SHA-256 for
 * files kept in LFS, which every GGUF is) and `X-Linked-Size`; `fetch` following the redirect
 * itself would drop those headers.
 */

import { hasCredentials } from './limits.js';

export type Fetch = typeof fetch;

const MAX_REDIRECTS = 10;

export interface RangeResponse {
  response: Response;
  /** The SHA-256 the server stated for the file (X-Linked-Etag, or an ETag that is one), if any. */
  statedSha256: string | null;
  /** The size the server stated on a redirect hop (X-Linked-Size), if any. */
  linkedSize: number | null;
}

/** An ETag-ish header value (`"abc"`, `W/"abc"`) → its SHA-256 when it is one, else null. */
export function sha256FromEtag(value: string | null): string | null {
  if (!value) return null;
  const bare = value
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .trim();
  return /^[a-f0-9]{64}$/i.test(bare) ? bare.toLowerCase() : null;
}

/** Thrown for answers no retry can change (404, a redirect to a non-http URL, …). */
export class DownloadRefused extends Error {}

/** GETs `url` from byte `offset` (with If-Range when a validator is known), following redirects. */
export async function requestRange(fetchImpl: Fetch, url: string, offset: number, validator: string | null, signal: AbortSignal): Promise<RangeResponse> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'Parley (model download)' };
  if (offset > 0) {
    headers.range = `bytes=${offset}-`;
    if (validator) headers['if-range'] = validator;
  }
  let statedSha256: string | null = null;
  let linkedSize: number | null = null;
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await fetchImpl(current, { headers, redirect: 'manual', signal });
    statedSha256 ??= sha256FromEtag(response.headers.get('x-linked-etag'));
    const size = Number(response.headers.get('x-linked-size'));
    if (linkedSize === null && Number.isSafeInteger(size) && size > 0) linkedSize = size;
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      const next = new URL(response.headers.get('location') ?? '', current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new DownloadRefused(`The server redirected to a ${next.protocol} URL; only http(s) downloads are allowed.`);
      if (hasCredentials(next)) throw new DownloadRefused('The server redirected to a URL with a user name or password; such redirects are not followed.');
      current = next.href;
      continue;
    }
    // The final answer's own ETag counts only where no hop stated a SHA-256 (a CDN's ETag is often an MD5).
    statedSha256 ??= sha256FromEtag(response.headers.get('etag'));
    return { response, statedSha256, linkedSize };
  }
  throw new DownloadRefused(`The server redirected more than ${MAX_REDIRECTS} times.`);
}

/** `Content-Range: bytes 100-199/2000` → `{ start: 100, total: 2000 }` (total null for `*`). */
export function parseContentRange(value: string | null): { start: number; total: number | null } | null {
  const match = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[3] === '*' ? null : Number(match[3]) };
}

/** `Content-Range: bytes *‌/2000` of a 416 → 2000. */
export function unsatisfiedRangeTotal(value: string | null): number | null {
  const match = /^bytes\s+\*\/(\d+)$/i.exec(value?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

/** A strong validator to send as If-Range: a strong ETag, else Last-Modified. */
export function validatorOf(response: Response): string | null {
  const etag = response.headers.get('etag');
  if (etag && !etag.startsWith('W/')) return etag;
  return response.headers.get('last-modified');
}

/** Statuses worth retrying: the server or the path to it may recover. */
export const isRetryableStatus = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;
