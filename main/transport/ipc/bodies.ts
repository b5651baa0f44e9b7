import { Readable } from 'node:stream';
import { ServiceError } from '../../../shared/errors.js';
import { BODY_FIELD, isOperationName, operations, type IncomingFile, type Operation } from '../../../shared/operations/index.js';

/** Bytes as structured cloning delivers them: an ArrayBuffer, or a view on one. */
export function bytesOf(value: unknown, what: string): Buffer {
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new ServiceError('invalid_argument', `${what} must be sent as bytes (an ArrayBuffer).`);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `files: [{ filename, mime_type?, bytes }]` in the payload → the files a multipart form would stream. */
async function* filesOf(value: unknown): AsyncGenerator<IncomingFile> {
  const files = Array.isArray(value) ? value : [];
  for (const [i, file] of files.entries()) {
    const { filename, mime_type: mimeType, bytes } = record(file);
    if (typeof filename !== 'string') throw new ServiceError('invalid_argument', `files.${i}.filename must be a string.`);
    yield { filename, mime_type: typeof mimeType === 'string' ? mimeType : null, stream: Readable.from([bytesOf(bytes, `files.${i}.bytes`)]) };
  }
}

/**
 * What IPC can carry of an operation's body, as the handler reads it. Structured cloning carries
 * bytes but not a stream: a raw body arrives as the bytes of `body` (at most the operation's limit),
 * a multipart form as `files: [{ filename, mime_type?, bytes }]`, each made the stream a form's
 * file would be. A file answer is a stream, which cannot cross: such operations are HTTP only
 * (the app opens a stored file by the signed link `artifacts.link` gives).
 */
export function ipcInput(name: string, input: unknown): unknown {
  if (!isOperationName(name)) return input;
  const op: Operation = operations[name];
  if (op.response === 'file') throw new ServiceError('invalid_argument', `${name} answers a file, which IPC does not carry; open it over HTTP (artifacts.link gives a signed URL).`);
  const kind = op.body ?? 'json';
  if (kind === 'json') return input;
  const fields = record(input);
  if (kind === 'multipart') return { ...fields, [BODY_FIELD.multipart]: filesOf(fields[BODY_FIELD.multipart]) };
  const bytes = bytesOf(fields[BODY_FIELD.raw], 'The body');
  const limit = op.http.bodyLimit;
  if (limit !== undefined && bytes.length > limit) throw new ServiceError('payload_too_large', `The body may be at most ${Math.floor(limit / (1024 * 1024))} MB.`);
  return { ...fields, [BODY_FIELD.raw]: Readable.from([bytes]) };
}
