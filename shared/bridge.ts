import type { ErrorPayload } from './errors.js';

/** IPC channel names; main and preload both import these, so they cannot disagree. */
export const IPC_INVOKE = 'parley:invoke';
export const IPC_STREAM_OPEN = 'parley:stream-open';
export const IPC_STREAM_PORT = 'parley:stream-port';
export const IPC_UPLOAD_PART = 'parley:upload-part';
export const IPC_PICK_FOLDER = 'parley:pick-folder';

/** What one invoke answers over IPC: the value, or the error with its code to rebuild on this side. */
export type IpcResult = { ok: true; value: unknown } | { ok: false; error: ErrorPayload };

/** What a stream's MessagePort carries, in order: any number of events, then one `end` or `error`. */
export type StreamMessage = { type: 'event'; event: unknown } | { type: 'end' } | { type: 'error'; error: ErrorPayload };

/**
 * `window.parley`: the whole surface the preload exposes to the renderer. Deliberately narrow:
 * no channel names, no Node, no Electron objects cross it.
 */
export interface ParleyBridge {
  readonly kind: 'desktop';
  /** Calls an operation of the registry by name; the input is validated in main. */
  invoke(operation: string, input: unknown): Promise<IpcResult>;
  /**
   * Opens a server-pushed stream (chat answers, live statuses): main sends a MessagePort and posts
   * `StreamMessage`s on it. Returns a function that closes the stream.
   */
  stream(operation: string, input: unknown, onMessage: (message: StreamMessage) => void): () => void;
  /**
   * Sends one part of a signed upload (`uploads.create` hands out the URLs) as bytes, so files
   * upload with the HTTP server off. Answers `{ part, received, progress }` or the error.
   */
  uploadPart(url: string, bytes: ArrayBuffer): Promise<IpcResult>;
  /**
   * Asks the owner for a folder with the system dialog (to follow it in a dataset): answers its
   * absolute path as `{ ok: true, value: string | null }`, null when the dialog was cancelled.
   */
  pickFolder(title: string): Promise<IpcResult>;
}
