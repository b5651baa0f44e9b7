import { Readable } from 'node:stream';
import { IPC_UPLOAD_PART, type IpcResult } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Service } from '../../core/service/service.js';
import { MAX_PART_BYTES, parsePartUrl } from '../../core/knowledge/uploads/part-url.js';
import { toIpcError, type LogError } from './error-payload.js';
import type { IpcMainInvokeLike } from './index.js';
import { isTrustedSender, type IpcSenderLike } from './sender.js';

export interface UploadPartDeps {
  ipcMain: IpcMainInvokeLike;
  service: Pick<Service, 'receivePart'>;
  isTrustedUrl: (url: string) => boolean;
  logError: LogError;
}

/** Bytes as structured cloning delivers them: an ArrayBuffer, or a view on one. */
function bytesOf(value: unknown): Buffer {
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new ServiceError('invalid_argument', 'A part must be sent as bytes (an ArrayBuffer).');
}

/**
 * Parts of a signed upload sent over IPC: the desktop uploads files even with the HTTP server off.
 * The signed URL is the permission, exactly as over HTTP (same grant, same signature check, same
 * pipeline); the IPC sender must be the app's own page on top of that.
 */
export function registerUploadParts(deps: UploadPartDeps): () => void {
  deps.ipcMain.handle(IPC_UPLOAD_PART, (event, url, bytes) => receive(deps, event, url, bytes));
  return () => deps.ipcMain.removeHandler(IPC_UPLOAD_PART);
}

async function receive(deps: UploadPartDeps, event: IpcSenderLike, url: unknown, bytes: unknown): Promise<IpcResult> {
  try {
    if (!isTrustedSender(event, deps.isTrustedUrl)) throw new ServiceError('forbidden', 'Only the Parley window may upload.');
    if (typeof url !== 'string' || url.length > 4096) throw new ServiceError('invalid_argument', 'The upload URL must be a string.');
    const { grant, signature } = parsePartUrl(url);
    const body = bytesOf(bytes);
    if (body.length > MAX_PART_BYTES) throw new ServiceError('payload_too_large', 'A part may be at most 512 MB.');
    const result = await deps.service.receivePart(grant, signature, Readable.from([body]));
    return { ok: true, value: { part: grant.part, ...result } };
  } catch (error) {
    const { payload, unexpected } = toIpcError(error);
    if (unexpected) deps.logError('An upload part sent over IPC failed unexpectedly', error);
    return { ok: false, error: payload };
  }
}
