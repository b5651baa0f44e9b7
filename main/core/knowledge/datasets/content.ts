import { ServiceError } from '../../../../shared/errors.js';
import type { FileDownload } from '../../../../shared/operations/files.js';
import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';
import type { ContextSlice } from '../../platform/context.js';
import { artifactByKey } from './access.js';
import { verifyDownload } from './download-link.js';
import type { InputOf } from '../../platform/operation-handlers.js';

function stored(ctx: ContextSlice<never, 'blobs'>, artifact: Pick<ArtifactRecord, 'filename' | 'mime_type' | 'size' | 'sha256' | 'status'>, disposition: FileDownload['disposition']): FileDownload {
  if (!artifact.sha256 || artifact.status === 'uploading' || artifact.status === 'pending') {
    throw new ServiceError('conflict', 'This file has not finished uploading.');
  }
  return { filename: artifact.filename, mime_type: artifact.mime_type, size: artifact.size, disposition, stream: ctx.runtime.blobs.read(artifact.sha256) };
}

/**
 * A stored file through a signed download link (`artifacts.link`): the signature, bound to the
 * artifact and an expiry, is the credential. A wrong, expired or foreign link is 403, and says so.
 */
function signedContent(ctx: ContextSlice<'repos' | 'now', 'signingKey' | 'blobs'>, input: InputOf<'artifacts.content'>, signature: string): FileDownload {
  const expires = input.expires ?? 0;
  const artifact = ctx.repos.artifacts.getByKey(input.kb_id, input.key);
  const valid = artifact !== undefined && verifyDownload(ctx.runtime.signingKey, { artifact_id: artifact.id, expires }, signature);
  if (!valid) throw new ServiceError('forbidden', 'This download link is not valid (the file changed, or the link was altered). Open the file again from its dataset.');
  if (expires * 1000 <= ctx.now().getTime()) throw new ServiceError('forbidden', 'This download link has expired. Open the file again from its dataset.');
  return stored(ctx, artifact, 'inline');
}

/**
 * `artifacts.content`: with the caller's token, the file as a download; with a signed link (no
 * token), shown where the browser can show it. The service skips the access check for a signed
 * request (`signed: 'or_token'`), so the signature is checked here before anything is read.
 */
export function artifactContent(ctx: ContextSlice<'repos' | 'now' | 'caller', 'signingKey' | 'blobs'>, input: InputOf<'artifacts.content'>): FileDownload {
  if (input.signature !== undefined) return signedContent(ctx, input, input.signature);
  if (!ctx.caller) throw new ServiceError('unauthenticated', 'This operation needs a signed-in caller.');
  return stored(ctx, artifactByKey({ ...ctx, caller: ctx.caller }, input.kb_id, input.key), 'attachment');
}
