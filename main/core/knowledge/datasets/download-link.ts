import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice } from '../../platform/context.js';
import { artifactByKey } from './access.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/**
 * How long a download link stays valid. Opening a file is one click away from asking for the link,
 * so a few minutes cover a slow browser while a link that leaks (history, logs) soon dies.
 */
export const DOWNLOAD_LINK_SECONDS = 300;

/** What a download link is bound to: one artifact (by id: a file re-uploaded under the key gets a new one) until `expires`. */
export interface DownloadGrant {
  artifact_id: string;
  /** Unix seconds. */
  expires: number;
}

// The `download` prefix keeps these signatures apart from upload part signatures under the same key.
const canonical = (g: DownloadGrant) => `download\n${g.artifact_id}\n${g.expires}`;

export function signDownload(key: Buffer, grant: DownloadGrant): string {
  return createHmac('sha256', key).update(canonical(grant)).digest('base64url');
}

/** Constant-time check of a signature against the grant it claims. */
export function verifyDownload(key: Buffer, grant: DownloadGrant, signature: string): boolean {
  const expected = Buffer.from(signDownload(key, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const encodeKey = (key: string) => encodeURIComponent(key);

/**
 * A short-lived signed URL of a stored file (`GET …/content?expires&signature`): a browser opens it
 * in a tab without the Bearer token, which a plain link cannot carry. Whoever may read the dataset
 * may have one; the URL is absolute when the HTTP server runs.
 */
export function artifactLink(ctx: AuthedSlice<'repos' | 'now', 'baseUrl' | 'mode' | 'signingKey'>, input: InputOf<'artifacts.link'>) {
  const artifact = artifactByKey(ctx, input.kb_id, input.key);
  if (!artifact.sha256 || artifact.status === 'uploading' || artifact.status === 'pending') {
    throw new ServiceError('conflict', 'This file has not finished uploading.');
  }
  const base = ctx.runtime.baseUrl();
  if (base === null && ctx.runtime.mode === 'desktop') {
    throw new ServiceError('unavailable', 'Opening a file needs the local HTTP server: turn it on in Settings → Local HTTP server.');
  }
  const expires = Math.floor(ctx.now().getTime() / 1000) + DOWNLOAD_LINK_SECONDS;
  const signature = signDownload(ctx.runtime.signingKey, { artifact_id: artifact.id, expires });
  const query = new URLSearchParams({ expires: String(expires), signature });
  return {
    url: `${base ?? ''}/api/knowledge-bases/${input.kb_id}/artifacts/${encodeKey(input.key)}/content?${query}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
}
