import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Upload } from '../../../../shared/operations/datasets.js';
import { ServiceError } from '../../../../shared/errors.js';
import { releaseBlob } from '../../platform/storage/release-blob.js';
import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { artifactView, embeds } from '../datasets/views.js';
import { mayWrite, orgKb, type DatasetCtx } from '../datasets/access.js';
import { newId } from '../../platform/ids.js';
import { TooManyBytes } from '../../platform/storage/blob-store.js';
import { storageError } from '../../platform/storage/disk-full.js';
import { signPart, verifyPart, type PartGrant } from './signing.js';
import type { InputOf } from '../../platform/operation-handlers.js';

const MB = 1024 * 1024;

/** What an upload's view reads: its rows, the clock, and what signs its part URLs and shows its files. */
type UploadViewCtx = AuthedSlice<'repos' | 'now', 'baseUrl' | 'signingKey' | 'embedding'>;
/** What creating or completing an upload reads: the view's part, the upload settings, the stored bytes and the ingest queue. */
type UploadCtx = AuthedSlice<'repos' | 'config' | 'now', 'baseUrl' | 'signingKey' | 'embedding' | 'blobs' | 'ingest'>;
/** What a signed part PUT reads: no caller (the signature is the credential). */
export type PartCtx = ContextSlice<'repos' | 'now', 'signingKey' | 'blobs'>;

function partCount(a: Pick<ArtifactRecord, 'size' | 'part_size'>): number {
  return Math.max(1, Math.ceil(a.size / a.part_size));
}

/** The exact size of part `n` (1-based): every part is `part_size` but the last. */
export function partSize(a: Pick<ArtifactRecord, 'size' | 'part_size'>, n: number): number {
  return n < partCount(a) ? a.part_size : a.size - a.part_size * (partCount(a) - 1);
}

function partUrls(ctx: ContextSlice<never, 'baseUrl' | 'signingKey'>, uploadId: string, a: ArtifactRecord, expires: number) {
  if (a.status !== 'pending' && a.status !== 'uploading') return [];
  const base = ctx.runtime.baseUrl() ?? '';
  return Array.from({ length: partCount(a) }, (_, i) => {
    const grant: PartGrant = { upload_id: uploadId, artifact_id: a.id, part: i + 1, size: partSize(a, i + 1), expires };
    const query = new URLSearchParams({ size: String(grant.size), expires: String(expires), signature: signPart(ctx.runtime.signingKey, grant) });
    return { part: grant.part, method: 'PUT' as const, size: grant.size, url: `${base}/api/uploads/${uploadId}/parts/${a.id}/${grant.part}?${query}` };
  });
}

/**
 * An upload of the caller's, or not_found: another user's upload does not exist for them (not even
 * for an admin), so its status, its signed part URLs and its completion stay with its owner.
 */
function ownUpload(ctx: DatasetCtx, uploadId: string) {
  const upload = ctx.repos.artifacts.getUpload(uploadId);
  if (!upload || upload.user_id !== ctx.caller.user.id) throw new ServiceError('not_found', `No upload ${uploadId} of yours.`);
  orgKb(ctx, upload.kb_id);
  return upload;
}

function uploadView(ctx: UploadViewCtx, uploadId: string): z.input<typeof Upload> {
  const upload = ownUpload(ctx, uploadId);
  const artifacts = ctx.repos.artifacts.ofUpload(uploadId);
  const expires = Math.floor(Date.parse(upload.expires_at) / 1000);
  const status = upload.status === 'open' && Date.parse(upload.expires_at) <= ctx.now().getTime() ? 'expired' : upload.status;
  return {
    upload_id: upload.id,
    kb_id: upload.kb_id,
    status,
    expires_at: upload.expires_at,
    files: artifacts.map((a) => ({ key: a.key, artifact_id: a.id, part_size: a.part_size, urls: status === 'open' ? partUrls(ctx, upload.id, a, expires) : [] })),
    artifacts: artifacts.map((a) => artifactView(a, embeds(ctx))),
  };
}

/**
 * One artifact per file, `pending`, with one signed PUT URL per part. A file over the size limit is
 * created `failed` (too_large) with no URLs, so the others go ahead.
 */
export function createUpload(ctx: UploadCtx, input: InputOf<'uploads.create'>) {
  mayWrite(ctx, orgKb(ctx, input.kb_id));
  const { uploads } = ctx.config();
  const maxBytes = uploads.max_file_mb * MB;
  const partBytes = Math.floor(uploads.part_size_mb * MB);
  for (const file of input.files) {
    if (ctx.repos.artifacts.getByKey(input.kb_id, file.key)) {
      throw new ServiceError('conflict', `An artifact with the key ${JSON.stringify(file.key)} already exists here; delete it first or choose another key.`, [
        { path: `files.${input.files.indexOf(file)}.key`, message: 'already exists' },
      ]);
    }
  }
  const now = ctx.now();
  const id = newId('upl');
  ctx.repos.transaction(() => {
    ctx.repos.artifacts.insertUpload({
      id,
      kb_id: input.kb_id,
      user_id: ctx.caller.user.id,
      expires_at: new Date(now.getTime() + uploads.url_ttl_seconds * 1000).toISOString(),
      now: now.toISOString(),
    });
    for (const file of input.files) {
      const artifactId = newId('art');
      const tooLarge = file.size > maxBytes;
      ctx.repos.artifacts.insert({
        id: artifactId,
        kb_id: input.kb_id,
        key: file.key,
        filename: file.filename,
        declared_mime_type: file.mime_type ?? null,
        size: file.size,
        part_size: partBytes,
        upload_id: id,
        user_id: ctx.caller.user.id,
        status: tooLarge ? 'failed' : 'pending',
        now: now.toISOString(),
      });
      if (tooLarge) {
        const detail = `The file is ${(file.size / MB).toFixed(1)} MB; the limit is ${uploads.max_file_mb} MB.`;
        ctx.repos.artifacts.setStatus(artifactId, 'failed', now.toISOString(), { code: 'too_large', detail });
      }
    }
  });
  return uploadView(ctx, id);
}

export function getUpload(ctx: UploadViewCtx, input: InputOf<'uploads.get'>) {
  return uploadView(ctx, input.upload_id);
}

/**
 * A part URL's credential — its signature and expiry — checked from the URL alone, so the HTTP
 * transport can refuse a forged one before reading any of its body.
 */
export function checkPartGrant(ctx: ContextSlice<'now', 'signingKey'>, grant: PartGrant, signature: string): void {
  if (!verifyPart(ctx.runtime.signingKey, grant, signature)) throw new ServiceError('forbidden', 'This upload URL is not valid (its signature does not match).');
  if (grant.expires * 1000 <= ctx.now().getTime()) throw new ServiceError('forbidden', 'This upload URL has expired; ask for the upload again (GET /uploads/{id}).');
}

/**
 * A part PUT to its signed URL: the signature is the credential (no bearer token), bound to the
 * upload, artifact, part, size and expiry. The body must be exactly that size.
 */
export async function receivePart(ctx: PartCtx, grant: PartGrant, signature: string, body: Readable): Promise<{ received: number; progress: number }> {
  checkPartGrant(ctx, grant, signature);
  const upload = ctx.repos.artifacts.getUpload(grant.upload_id);
  const artifact = ctx.repos.artifacts.get(grant.artifact_id);
  if (!upload || !artifact || artifact.upload_id !== upload.id) throw new ServiceError('not_found', 'This upload no longer exists.');
  if (upload.status !== 'open') throw new ServiceError('conflict', `This upload is ${upload.status}; no more parts are accepted.`);
  if (artifact.status !== 'pending' && artifact.status !== 'uploading') throw new ServiceError('conflict', `This file is ${artifact.status}; no more parts are accepted.`);
  const expected = partSize(artifact, grant.part);
  if (grant.part < 1 || grant.part > partCount(artifact) || grant.size !== expected) throw new ServiceError('forbidden', 'This upload URL does not match the file.');

  let size: number;
  try {
    size = await ctx.runtime.blobs.putPart(artifact.id, grant.part, body, expected);
  } catch (error) {
    if (error instanceof TooManyBytes) throw new ServiceError('payload_too_large', `Part ${grant.part} must be exactly ${expected} bytes; more were sent.`);
    throw storageError(error);
  }
  if (size !== expected) throw new ServiceError('invalid_argument', `Part ${grant.part} must be exactly ${expected} bytes; ${size} were sent.`);
  const now = isoNow(ctx);
  // The file (or its whole dataset) may have been deleted while the part arrived: then the part is
  // dropped and the sender told so, rather than a part row pointing at nothing.
  const progress = ctx.repos.transaction(() => {
    const current = ctx.repos.artifacts.get(artifact.id);
    if (!current || (current.status !== 'pending' && current.status !== 'uploading')) return undefined;
    ctx.repos.artifacts.putPart(artifact.id, grant.part, size, now);
    const received = Math.min(1, ctx.repos.artifacts.receivedBytes(artifact.id) / artifact.size);
    ctx.repos.artifacts.setStatus(artifact.id, 'uploading', now, undefined, received);
    return received;
  });
  if (progress === undefined) {
    await ctx.runtime.blobs.dropParts(artifact.id);
    throw new ServiceError('not_found', 'This file was deleted (or its dataset was) while the part was uploading; the part was not kept.');
  }
  return { received: size, progress };
}

/**
 * Ends the upload. Each file whose parts all arrived is assembled into its content-addressed blob
 * and queued for processing; a file with missing parts fails, saying which.
 */
export async function completeUpload(ctx: UploadCtx, input: InputOf<'uploads.complete'>) {
  const view = uploadView(ctx, input.upload_id);
  if (view.status === 'expired') throw new ServiceError('conflict', 'This upload has expired; start a new one.');
  if (view.status === 'completed') return view;
  const maxBytes = ctx.config().uploads.max_file_mb * MB;
  ctx.repos.artifacts.setUploadStatus(input.upload_id, 'completed', isoNow(ctx));
  for (const artifact of ctx.repos.artifacts.ofUpload(input.upload_id)) {
    if (artifact.status !== 'pending' && artifact.status !== 'uploading') continue;
    const received = new Set(ctx.repos.artifacts.parts(artifact.id).filter((p) => p.size === partSize(artifact, p.part)).map((p) => p.part));
    const missing = Array.from({ length: partCount(artifact) }, (_, i) => i + 1).filter((n) => !received.has(n));
    if (missing.length > 0) {
      const detail = `Part${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? '…' : ''} of ${partCount(artifact)} never arrived.`;
      ctx.repos.artifacts.setStatus(artifact.id, 'failed', isoNow(ctx), { code: 'incomplete', detail });
      await ctx.runtime.blobs.dropParts(artifact.id);
      continue;
    }
    let stored: { sha256: string; size: number };
    try {
      stored = await ctx.runtime.blobs.assemble(artifact.id, partCount(artifact), maxBytes);
    } catch (error) {
      // The parts stay (the upload can be completed again once there is room); the artifact waits as it was.
      ctx.repos.artifacts.setUploadStatus(input.upload_id, 'open', isoNow(ctx));
      throw storageError(error);
    }
    ctx.repos.artifacts.clearParts(artifact.id);
    ctx.repos.artifacts.setStored(artifact.id, stored.sha256, null, isoNow(ctx));
    ctx.repos.artifacts.setStatus(artifact.id, 'processing', isoNow(ctx));
    ctx.runtime.ingest.enqueue(artifact.id);
  }
  return uploadView(ctx, input.upload_id);
}

/**
 * The multipart/form-data route: one whole file from a stream, through the same pipeline. The key
 * defaults to the file name.
 */
export async function storeFile(ctx: AuthedSlice<'repos' | 'config' | 'now', 'blobs' | 'ingest'>, kbId: string, file: { key: string; filename: string; mime_type: string | null; stream: Readable }) {
  try {
    mayWrite(ctx, orgKb(ctx, kbId));
  } catch (error) {
    file.stream.resume();
    throw error;
  }
  if (ctx.repos.artifacts.getByKey(kbId, file.key)) {
    file.stream.resume();
    throw new ServiceError('conflict', `An artifact with the key ${JSON.stringify(file.key)} already exists here; delete it first or choose another key.`);
  }
  const { uploads } = ctx.config();
  const maxBytes = uploads.max_file_mb * MB;
  const id = newId('art');
  const now = isoNow(ctx);
  ctx.repos.artifacts.insert({ id, kb_id: kbId, key: file.key, filename: file.filename, declared_mime_type: file.mime_type, size: 0, part_size: maxBytes, upload_id: null, user_id: ctx.caller.user.id, status: 'uploading', now });
  let stored: { sha256: string; size: number };
  try {
    stored = await ctx.runtime.blobs.put(file.stream, maxBytes);
  } catch (error) {
    // Nothing half-written survives: the row goes (its key is free again), the temp file went with the failed write.
    ctx.repos.artifacts.delete(id);
    if (error instanceof TooManyBytes) {
      throw new ServiceError('payload_too_large', `${JSON.stringify(file.filename)} is larger than the limit of ${uploads.max_file_mb} MB ([uploads] max_file_mb); it was not stored.`);
    }
    throw storageError(error);
  }
  // The dataset (or the file) may have been deleted while the bytes arrived: its row is gone then,
  // and so must the bytes be, unless another file stores the same ones.
  const row = ctx.repos.transaction(() => {
    if (!ctx.repos.artifacts.get(id)) return undefined;
    ctx.repos.artifacts.setSize(id, stored.size);
    ctx.repos.artifacts.setStored(id, stored.sha256, null, isoNow(ctx));
    ctx.repos.artifacts.setStatus(id, 'processing', isoNow(ctx));
    return ctx.repos.artifacts.get(id);
  });
  if (!row) {
    await releaseBlob({ repos: ctx.repos, blobs: ctx.runtime.blobs }, stored.sha256);
    throw new ServiceError('not_found', `${JSON.stringify(file.filename)} was not stored: its dataset (or the file) was deleted while it was uploading.`);
  }
  ctx.runtime.ingest.enqueue(id);
  return artifactView(row);
}
