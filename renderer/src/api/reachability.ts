import { ServiceError } from '../../../shared/errors.js';
import type { Client } from './client.js';

export interface Reachability {
  /** The same client, watched: its failures to reach the service and its answers say whether it can. */
  client: Client;
  /** Hears `false` once when the service stops answering and `true` once when it answers again. */
  onChange(listener: (reachable: boolean) => void): () => void;
}

export interface ReachabilityOptions {
  /** How often to knock while the service does not answer. */
  retryMs?: number;
}

function unreachable(error: unknown): boolean {
  return error instanceof ServiceError && error.code === 'unavailable';
}

/**
 * Watches `client` for a lost service. A call that cannot reach it is checked with the health
 * probe first (the service also answers `unavailable` for reasons of its own); while it is gone,
 * the probe knocks every few seconds, so "back" is heard even when nothing else calls.
 */
export function watchReachability(inner: Client, options: ReachabilityOptions = {}): Reachability {
  const retryMs = options.retryMs ?? 3000;
  const listeners = new Set<(reachable: boolean) => void>();
  let reachable = true;
  let probing = false;

  const set = (next: boolean) => {
    if (next === reachable) return;
    reachable = next;
    for (const listener of listeners) listener(next);
  };

  const probe = async () => {
    if (probing) return;
    probing = true;
    try {
      for (;;) {
        try {
          await inner.call('service.health', {});
          set(true);
          return;
        } catch (error) {
          // Any other answer came from the service itself: it is there.
          set(!unreachable(error));
          if (reachable) return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    } finally {
      probing = false;
    }
  };

  const heard = <S extends { type: string; error?: unknown }>(signal: S): S => {
    if (signal.type === 'error' && unreachable(signal.error)) void probe();
    return signal;
  };

  const client: Client = {
    async call(name, input) {
      try {
        const output = await inner.call(name, input);
        set(true);
        return output;
      } catch (error) {
        if (unreachable(error)) void probe();
        throw error;
      }
    },
    // A stream that cannot reach the service (a message sent while it is down) is heard too.
    streamChat: (name, input, streamOptions, onSignal) => inner.streamChat(name, input, streamOptions, (signal) => onSignal(heard(signal))),
    stream: (name, input, streamOptions, onSignal) => inner.stream(name, input, streamOptions, (signal) => onSignal(heard(signal))),
    async uploadPart(url, bytes) {
      try {
        await inner.uploadPart(url, bytes);
      } catch (error) {
        if (unreachable(error)) void probe();
        throw error;
      }
    },
  };

  return {
    client,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
