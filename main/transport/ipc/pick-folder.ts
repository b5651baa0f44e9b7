import { IPC_PICK_FOLDER, type IpcResult } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import { toIpcError, type LogError } from './error-payload.js';
import type { IpcMainInvokeLike } from './index.js';
import { isTrustedSender, type IpcSenderLike } from './sender.js';

/** The slice of Electron's `dialog` the picker uses (`showOpenDialog` without a parent window). */
export interface FolderDialogLike {
  showOpenDialog(options: { title: string; properties: Array<'openDirectory' | 'createDirectory' | 'dontAddToRecent'> }): Promise<{ canceled: boolean; filePaths: string[] }>;
}

export interface PickFolderDeps {
  ipcMain: IpcMainInvokeLike;
  dialog: FolderDialogLike;
  isTrustedUrl: (url: string) => boolean;
  logError: LogError;
}

/**
 * The system's folder dialog for the desktop owner, who picks the folders a dataset follows (issue
 * 30): the renderer only learns the path the owner chose, and following it is still the
 * `folders.create` operation, validated and authorized in the core like any other call.
 */
export function registerFolderPicker(deps: PickFolderDeps): () => void {
  deps.ipcMain.handle(IPC_PICK_FOLDER, (event, title) => pick(deps, event, title));
  return () => deps.ipcMain.removeHandler(IPC_PICK_FOLDER);
}

async function pick(deps: PickFolderDeps, event: IpcSenderLike, title: unknown): Promise<IpcResult> {
  try {
    if (!isTrustedSender(event, deps.isTrustedUrl)) throw new ServiceError('forbidden', 'Only the Parley window may open the folder dialog.');
    const shown = typeof title === 'string' && title.length > 0 && title.length <= 200 ? title : 'Choose a folder';
    const result = await deps.dialog.showOpenDialog({ title: shown, properties: ['openDirectory', 'dontAddToRecent'] });
    const path = result.canceled ? undefined : result.filePaths[0];
    return { ok: true, value: path ?? null };
  } catch (error) {
    const { payload, unexpected } = toIpcError(error);
    if (unexpected) deps.logError('The folder dialog failed unexpectedly', error);
    return { ok: false, error: payload };
  }
}
