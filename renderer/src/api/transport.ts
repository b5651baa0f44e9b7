import type { OperationName } from '../../../shared/operations/index.js';

/**
 * How the client reaches the service: the preload bridge in the desktop app, fetch in a browser.
 * A transport takes an operation of the registry by name with its input, answers the raw output,
 * and fails only with a `ServiceError` carrying the service's code, so callers never learn which
 * transport they have.
 *
 * Streaming operations (chat) will add `stream(operation, input, onEvent) → close`, mirroring
 * `ParleyBridge.stream`: the bridge forwards its MessagePort messages, fetch parses SSE.
 */
export interface Transport {
  invoke(operation: OperationName, input: unknown): Promise<unknown>;
}
