import type { ParleyBridge } from '../../../shared/bridge.js';
import { ServiceError, errorText } from '../../../shared/errors.js';
import type { Transport } from './transport.js';

/** `window.parley`, when the preload exposed it (desktop app); null in a plain browser. */
export function findBridge(scope: object = globalThis): ParleyBridge | null {
  const candidate: unknown = (scope as { parley?: unknown }).parley;
  if (typeof candidate !== 'object' || candidate === null) return null;
  const bridge = candidate as Partial<ParleyBridge>;
  return bridge.kind === 'desktop' && typeof bridge.invoke === 'function' ? (bridge as ParleyBridge) : null;
}

/** Desktop: every call crosses IPC as `{ ok, value | error }`; the error is rebuilt here with its code. */
export function createBridgeTransport(bridge: ParleyBridge): Transport {
  return {
    async invoke(operation, input) {
      let result;
      try {
        result = await bridge.invoke(operation, input);
      } catch (error) {
        throw new ServiceError('unavailable', `The app's service did not answer: ${errorText(error)}`);
      }
      if (result.ok) return result.value;
      throw ServiceError.fromPayload(result.error);
    },
    async uploadPart(url, bytes) {
      let result;
      try {
        result = await bridge.uploadPart(url, await bytes.arrayBuffer());
      } catch (error) {
        throw new ServiceError('unavailable', `The app's service did not answer: ${errorText(error)}`);
      }
      if (!result.ok) throw ServiceError.fromPayload(result.error);
    },
    stream(operation, input, options, onSignal) {
      // Over IPC the replay point travels in the input, as the HTTP query would carry it.
      const withReplay = options.lastEventId === undefined ? input : { ...(input as object), last_event_id: options.lastEventId };
      try {
        return bridge.stream(operation, withReplay, (message) => {
          if (message.type === 'end') onSignal({ type: 'end' });
          else if (message.type === 'error') onSignal({ type: 'error', error: ServiceError.fromPayload(message.error) });
          else {
            const event = message.event as { id?: unknown };
            onSignal({ type: 'event', id: typeof event.id === 'number' ? event.id : -1, event: message.event });
          }
        });
      } catch (error) {
        onSignal({ type: 'error', error: new ServiceError('unavailable', `The app's service did not answer: ${errorText(error)}`) });
        return () => undefined;
      }
    },
  };
}
