import { IPC_INVOKE, IPC_PICK_FOLDER, IPC_STREAM_OPEN, IPC_STREAM_PORT, IPC_UPLOAD_PART, type IpcResult, type ParleyBridge, type StreamMessage } from '../shared/bridge.js';
import { errorTitle } from '../shared/errors.js';

/** A transferred port as the preload sees it (the DOM `MessagePort`; Node's fits for tests). */
export interface BridgePort {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start(): void;
  close(): void;
}

/** The slice of Electron's `ipcRenderer` the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: { readonly ports: readonly BridgePort[] }, ...args: unknown[]) => void): unknown;
}

function streamIdOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('stream_id' in message)) return undefined;
  return typeof message.stream_id === 'string' ? message.stream_id : undefined;
}

/**
 * `window.parley`. Only these members cross the context bridge: the renderer never sees
 * `ipcRenderer`, channel names or ports, so a compromised page can call operations (validated and
 * authorized in main) and nothing else.
 */
export function createBridge(ipcRenderer: IpcRendererLike): ParleyBridge {
  // A random prefix keeps ids of a reloaded page from matching a port meant for the page before.
  const prefix = Math.random().toString(36).slice(2, 10);
  let counter = 0;
  /** Streams waiting for their port, by stream id. */
  const awaitingPort = new Map<string, (port: BridgePort) => void>();
  let listening = false;

  // One listener for every stream: a listener per stream would trip the emitter's leak warning
  // at eleven concurrent streams.
  const listen = () => {
    if (listening) return;
    listening = true;
    ipcRenderer.on(IPC_STREAM_PORT, (event, message) => {
      const id = streamIdOf(message);
      const port = event.ports[0];
      const deliver = id === undefined ? undefined : awaitingPort.get(id);
      if (!deliver || !port) return;
      awaitingPort.delete(id as string);
      deliver(port);
    });
  };

  const invokeChannel = async (channel: string, ...args: unknown[]): Promise<IpcResult> => {
    try {
      return (await ipcRenderer.invoke(channel, ...args)) as IpcResult;
    } catch {
      // Only happens when main has no handler (starting up or shutting down): still an IpcResult.
      return {
        ok: false,
        error: { code: 'unavailable', title: errorTitle('unavailable'), detail: 'The Parley main process is not answering.', status: 503 },
      };
    }
  };

  const bridge: ParleyBridge = {
    kind: 'desktop',

    invoke(operation: string, input: unknown): Promise<IpcResult> {
      return invokeChannel(IPC_INVOKE, { operation, input });
    },

    uploadPart(url: string, bytes: ArrayBuffer): Promise<IpcResult> {
      return invokeChannel(IPC_UPLOAD_PART, url, bytes);
    },

    pickFolder(title: string): Promise<IpcResult> {
      return invokeChannel(IPC_PICK_FOLDER, title);
    },

    stream(operation: string, input: unknown, onMessage: (message: StreamMessage) => void): () => void {
      const streamId = `${prefix}-${++counter}`;
      let closed = false;
      let port: BridgePort | undefined;
      const close = () => {
        if (closed) return;
        closed = true;
        // Closing our end is what tells main to stop the source; before the port arrives,
        // the arrival handler below closes it instead.
        port?.close();
      };
      awaitingPort.set(streamId, (arrived) => {
        if (closed) {
          arrived.close();
          return;
        }
        port = arrived;
        arrived.addEventListener('message', (event) => {
          if (closed) return;
          const message = event.data as StreamMessage;
          onMessage(message);
          // end and error are final: closing frees main's end of the channel.
          if (message.type !== 'event') close();
        });
        arrived.start();
      });
      listen();
      ipcRenderer.send(IPC_STREAM_OPEN, { stream_id: streamId, operation, input });
      return close;
    },
  };
  return Object.freeze(bridge);
}
