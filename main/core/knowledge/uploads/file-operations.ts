import { Readable } from 'node:stream';
import { ServiceError } from '../../../../shared/errors.js';
import { NewArtifactKey, showBidiControls } from '../../../../shared/operations/datasets.js';
import type { ByteStream } from '../../../../shared/operations/files.js';
import type { AuthedSlice } from '../../platform/context.js';
import { fieldErrors } from '../../platform/field-errors.js';
import { receivePart, storeFile, type PartCtx } from './handlers.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';
import { completeUpload, createUpload, getUpload } from './handlers.js';
import { uploadLimits } from './limits.js';

function readable(bytes: ByteStream): Readable {
  return bytes instanceof Readable ? bytes : Readable.from(bytes);
}

/**
 * `artifacts.upload`: each `file` field of a multipart form stored whole, in the order they arrive
 * (a form's files come one after another: each is read to its end before the next is reached).
 */
export async function uploadArtifacts(ctx: AuthedSlice<'repos' | 'config' | 'now', 'blobs' | 'ingest'>, input: InputOf<'artifacts.upload'>) {
  const data = [];
  for await (const file of input.files) {
    const key = NewArtifactKey.safeParse(file.filename);
    if (!key.success) {
      file.stream.resume();
      throw new ServiceError('invalid_argument', `The file name ${JSON.stringify(showBidiControls(file.filename))} cannot be a key.`, fieldErrors(key.error));
    }
    data.push(await storeFile(ctx, input.kb_id, { key: key.data, filename: file.filename, mime_type: file.mime_type, stream: readable(file.stream) }));
  }
  if (data.length === 0) throw new ServiceError('invalid_argument', 'No `file` field in the form.');
  return { data };
}

/** `uploads.part`: the part's bytes, checked against its signed URL (signature, size, expiry). */
export async function uploadPart(ctx: PartCtx, input: InputOf<'uploads.part'>) {
  const { signature, body, ...grant } = input;
  const result = await receivePart(ctx, grant, signature, readable(body));
  return { part: grant.part, ...result };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const uploadHandlers: Pick<Handlers, 'artifacts.upload' | 'uploads.create' | 'uploads.get' | 'uploads.complete' | 'uploads.part' | 'uploads.limits'> = {
  'artifacts.upload': uploadArtifacts,
  'uploads.create': createUpload,
  'uploads.get': getUpload,
  'uploads.complete': completeUpload,
  'uploads.part': uploadPart,
  'uploads.limits': uploadLimits,
};
