import type { MessagePort } from 'node:worker_threads';
import { IPC_INVOKE, IPC_STREAM_OPEN, type IpcResult, type StreamMessage } from '../../shared/bridge.js';
import type { IpcMainInvokeLike } from '../../main/transport/ipc/index.js';
import type { IpcSenderLike } from '../../main/transport/ipc/sender.js';
import type { IpcMainOnLike, StreamOpenEventLike } from '../../main/transport/ipc/stream-port.js';

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


type StreamListener = (event: StreamOpenEventLike<MessagePort>, ...args: unknown[]) => void;

/** Records what registerStreams hands to `ipcMain.on`; its ports are Node's (`MessageChannel`). */
export class FakeIpcStreams implements IpcMainOnLike<MessagePort> {
  readonly listeners = new Map<string, StreamListener>();
  on(channel: string, listener: StreamListener): void {
    this.listeners.set(channel, listener);
  }
  removeListener(channel: string, listener: StreamListener): void {
    if (this.listeners.get(channel) === listener) this.listeners.delete(channel);
  }
  /** What the preload's `ipcRenderer.send(IPC_STREAM_OPEN, payload)` would get back: one answer per port sent. */
  open(payload: unknown, url: string | null = 'app://parley/index.html'): StreamAnswer[] {
    const answers: StreamAnswer[] = [];
    const event: StreamOpenEventLike<MessagePort> = {
      senderFrame: url === null ? null : { url },
      sender: {
        postMessage(channel, message, transfer) {
          const port = transfer[0];
          if (!port) throw new Error('no port transferred');
          const received: StreamMessage[] = [];
          const done = new Promise<void>((resolve) => {
            port.on('message', (m: StreamMessage) => {
              received.push(m);
              if (m.type !== 'event') resolve();
            });
          });
          answers.push({ channel, message, port, received, done });
        },
      },
    };
    const listener = this.listeners.get(IPC_STREAM_OPEN);
    if (!listener) throw new Error('not listening');
    listener(event, payload);
    return answers;
  }
}

/** The renderer side of one stream request: the port main sent back, and the messages on it. */
export interface StreamAnswer {
  channel: string;
  message: unknown;
  port: MessagePort;
  received: StreamMessage[];
  /** Resolves at the first `end` or `error`. */
  done: Promise<void>;
}
