import type { OperationName } from '../../../shared/operations/index.js';

/** What a stream hands its listener: each event with its sequence number, then one end or error. */
export type StreamSignal =
  | { type: 'event'; id: number; event: unknown }
  | { type: 'end' }
  /** A `ServiceError`: refused before the first event, or the connection lost mid-way. */
  | { type: 'error'; error: Error };

export interface StreamOptions {
  /** Replays only the events after this one (chat.stream re-attaching). */
  lastEventId?: number;
}

/**
 * How the client reaches the service: the preload bridge in the desktop app, fetch in a browser.
 * A transport takes an operation of the registry by name with its input, answers the raw output,
 * and fails only with a `ServiceError` carrying the service's code, so callers never learn which
 * transport they have.
 *
 * `stream` opens a server-pushed stream (chat answers): the bridge forwards its MessagePort
 * messages, fetch parses SSE. It answers `close()`, which stops listening (it does not cancel the
 * answer on the service: that is chat.cancel).
 */
export interface Transport {
  invoke(operation: OperationName, input: unknown): Promise<unknown>;
  /**
   * Sends one part of a signed upload (a URL from `uploads.create`): a PUT over HTTP, the bytes
   * themselves over the bridge, so the desktop uploads with the HTTP server off.
   */
  uploadPart(url: string, bytes: Blob): Promise<void>;
  stream(operation: OperationName, input: unknown, options: StreamOptions, onSignal: (signal: StreamSignal) => void): () => void;
}
