import type { ParleyBridge } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
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
        throw new ServiceError('unavailable', `The app's service did not answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (result.ok) return result.value;
      throw ServiceError.fromPayload(result.error);
    },
  };
}
