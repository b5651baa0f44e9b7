import { z } from 'zod';
import type { IpcResult } from '../../../shared/bridge.js';
import { IPC_INVOKE } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';
import { fieldErrors } from '../../core/platform/field-errors.js';
import { ipcInput } from './bodies.js';
import { toIpcError, type LogError } from './error-payload.js';
import { isTrustedSender, type IpcSenderLike } from './sender.js';

/** The slice of Electron's `ipcMain` this transport uses; tests pass a recorder. */
export interface IpcMainInvokeLike {
  handle(channel: string, listener: (event: IpcSenderLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcDeps {
  ipcMain: IpcMainInvokeLike;
  service: Pick<Service, 'invoke'>;
  /** Who the renderer acts as: resolved per call, so a changed profile applies at once. */
  desktopCaller: () => Caller;
  isTrustedUrl: (url: string) => boolean;
  logError: LogError;
}

/** What the preload sends; strict, so a renderer bug shows up as an error rather than being ignored. */
const InvokePayload = z.strictObject({
  operation: z.string().min(1).max(200),
  input: z.unknown().optional(),
});

/**
 * Serves every registry operation over one invoke channel. Answers are always an `IpcResult`, never
 * a rejection: Electron would turn a thrown error into a string and lose its code.
 * Returns a disposer that removes the handler.
 */
export function registerIpc(deps: IpcDeps): () => void {
  deps.ipcMain.handle(IPC_INVOKE, (event, payload) => handleInvoke(deps, event, payload));
  return () => deps.ipcMain.removeHandler(IPC_INVOKE);
}

async function handleInvoke(deps: IpcDeps, event: IpcSenderLike, payload: unknown): Promise<IpcResult> {
  let operation = '(unparsed)';
  try {
    if (!isTrustedSender(event, deps.isTrustedUrl)) {
      throw new ServiceError('forbidden', 'Only the Parley window may call the service.');
    }
    const parsed = InvokePayload.safeParse(payload);
    if (!parsed.success) {
      throw new ServiceError('invalid_argument', 'An IPC call must be { operation: string, input?: unknown }.', fieldErrors(parsed.error));
    }
    operation = parsed.data.operation;
    const input = ipcInput(parsed.data.operation, parsed.data.input);
    const value = await deps.service.invoke(parsed.data.operation, input, deps.desktopCaller());
    return { ok: true, value };
  } catch (error) {
    const { payload: errorPayload, unexpected } = toIpcError(error);
    if (unexpected) deps.logError(`IPC call ${operation} failed unexpectedly`, error);
    return { ok: false, error: errorPayload };
  }
}
