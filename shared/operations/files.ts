import { z } from 'zod';
import { defineOperation } from './define.js';
import { Artifact, ArtifactKey } from './datasets.js';

/**
 * The operations whose body or answer is a file rather than JSON: a multipart/form-data upload, a
 * part's raw bytes PUT to its signed URL, and a stored file served back.
 */

/** Bytes as a transport hands them over (a Node stream is one); `resume()` drains what is not read. */
export interface ByteStream extends AsyncIterable<Uint8Array> {
  resume(): unknown;
}

/** One `file` field of a multipart form, as it arrives (its bytes not read yet). */
export interface IncomingFile {
  readonly filename: string;
  readonly mime_type: string | null;
  readonly stream: ByteStream;
}

function isAsyncIterable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

const Bytes = z.custom<ByteStream>(isAsyncIterable, 'must be the request body, as bytes');
const Files = z.custom<AsyncIterable<IncomingFile>>(isAsyncIterable, 'must be the files of a multipart/form-data form');

/** Largest part either transport accepts; a part's signed size is checked against its bytes too. */
export const MAX_PART_BYTES = 512 * 1024 * 1024;

const KbId = z.string().regex(/^kb_[A-Za-z0-9]+$/);

/** The fields of a signed part URL: path parameters and query together. */
export const PartParams = z.object({
  upload_id: z.string().regex(/^upl_[A-Za-z0-9]+$/),
  artifact_id: z.string().regex(/^art_[A-Za-z0-9]+$/),
  part: z.coerce.number().int().min(1).max(100_000),
  size: z.coerce.number().int().min(0),
  expires: z.coerce.number().int().min(0),
  signature: z.string().min(1).max(200),
});

/** A stored file to answer: the transport streams `stream` with the name, type and size given. */
export const FileDownload = z.object({
  filename: z.string(),
  mime_type: z.string().nullable(),
  size: z.number().int(),
  /** `inline`: shown in the browser where it can be (a signed link opened in a tab); else saved. */
  disposition: z.enum(['attachment', 'inline']),
  stream: Bytes,
});
export type FileDownload = z.output<typeof FileDownload>;

export const uploadArtifacts = defineOperation({
  name: 'artifacts.upload',
  summary: 'Stores whole files sent as multipart/form-data, one or more `file` fields; each file name is its key.',
  tag: 'Datasets',
  access: 'user',
  body: 'multipart',
  http: { method: 'POST', path: '/knowledge-bases/{kb_id}/artifacts', status: 201 },
  input: z.object({ kb_id: KbId, files: Files }),
  output: z.object({ data: z.array(Artifact) }),
});

export const uploadPart = defineOperation({
  name: 'uploads.part',
  summary: 'One part of a multi-part upload, PUT as raw bytes to the signed URL `uploads.create` gave (the signature is the credential; no bearer token).',
  tag: 'Datasets',
  access: 'public',
  signed: 'only',
  body: 'raw',
  http: { method: 'PUT', path: '/uploads/{upload_id}/parts/{artifact_id}/{part}', status: 200, bodyLimit: MAX_PART_BYTES },
  input: PartParams.extend({ body: Bytes }),
  output: z.object({ part: z.number().int(), received: z.number().int(), progress: z.number() }),
});

export const artifactContent = defineOperation({
  name: 'artifacts.content',
  summary:
    'A stored file. With the bearer token: a download. With a signed link (`artifacts.link`, no token needed): shown in the browser where it can be, sandboxed.',
  tag: 'Datasets',
  access: 'user',
  signed: 'or_token',
  response: 'file',
  http: { method: 'GET', path: '/knowledge-bases/{kb_id}/artifacts/{key}/content', status: 200 },
  input: z
    .object({
      kb_id: KbId,
      key: ArtifactKey,
      expires: z.coerce.number().int().min(0).optional(),
      signature: z.string().min(1).max(200).optional(),
    })
    .refine((q) => (q.expires === undefined) === (q.signature === undefined), { message: 'a signed link has both expires and signature', path: ['signature'] }),
  output: FileDownload,
});
