import { IPC_UPLOAD_PART, type IpcResult } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Service } from '../../core/service/service.js';
import { parsePartUrl } from '../../core/knowledge/uploads/part-url.js';
import { ipcInput } from './bodies.js';
import { toIpcError, type LogError } from './error-payload.js';
import type { IpcMainInvokeLike } from './index.js';
import { isTrustedSender, type IpcSenderLike } from './sender.js';

export interface UploadPartDeps {
  ipcMain: IpcMainInvokeLike;
  service: Pick<Service, 'invoke'>;
  isTrustedUrl: (url: string) => boolean;
  logError: LogError;
}

/**
 * Parts of a signed upload sent over IPC: the desktop uploads files even with the HTTP server off.
 * The renderer holds the signed URL `uploads.create` gave; its fields become the input of
 * `uploads.part`, the same operation (and signature check) HTTP runs. The IPC sender must be the
 * app's own page on top of that.
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
    const input = ipcInput('uploads.part', { ...grant, signature, body: bytes });
    const value = await deps.service.invoke('uploads.part', input, null);
    return { ok: true, value };
  } catch (error) {
    const { payload, unexpected } = toIpcError(error);
    if (unexpected) deps.logError('An upload part sent over IPC failed unexpectedly', error);
    return { ok: false, error: payload };
  }
}
