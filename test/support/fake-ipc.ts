import { IPC_INVOKE, type IpcResult } from '../../shared/bridge.js';
import type { IpcMainInvokeLike } from '../../main/transport/ipc/index.js';
import type { IpcSenderLike } from '../../main/transport/ipc/sender.js';

type Listener = (event: IpcSenderLike, ...args: unknown[]) => unknown;

/** Records what registerIpc hands to `ipcMain.handle`, as Electron would keep it. */
export class FakeIpcMain implements IpcMainInvokeLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What the renderer's `ipcRenderer.invoke(IPC_INVOKE, payload)` would resolve to. */
  async call(payload: unknown, url: string | null = 'app://parley/index.html'): Promise<IpcResult> {
    const handler = this.handlers.get(IPC_INVOKE);
    if (!handler) throw new Error('no handler');
    const event: IpcSenderLike = { senderFrame: url === null ? null : { url } };
    return (await handler(event, payload)) as IpcResult;
  }
}

