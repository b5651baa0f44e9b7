import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../shared/errors.js';
import type { Client } from '../../../renderer/src/api/client.js';
import { watchReachability } from '../../../renderer/src/api/reachability.js';

/** A client whose every call answers as `state.up` says: an empty object, or "could not reach". */
function fakeClient(state: { up: boolean; calls: string[] }): Client {
  return {
    call: (async (name: string) => {
      state.calls.push(name);
      if (!state.up) throw new ServiceError('unavailable', 'Could not reach the Parley service.');
      return name === 'service.health' ? { status: 'ok' } : {};
    }) as Client['call'],
    streamChat: () => () => undefined,
    stream: () => () => undefined,
    uploadPart: async () => undefined,
  };
}

describe('watchReachability', () => {
  // The knocking is timed: fake timers step through it, so the test neither waits nor races.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says once that the service is gone, knocks until it answers, and says once that it is back', async () => {
    const state = { up: false, calls: [] as string[] };
    const watched = watchReachability(fakeClient(state), { retryMs: 10 });
    const heard: boolean[] = [];
    watched.onChange((reachable) => heard.push(reachable));

    await expect(watched.client.call('threads.list', { limit: 1 })).rejects.toThrow(/Could not reach/);
    await expect(watched.client.call('datasets.list', { limit: 1 })).rejects.toThrow(/Could not reach/);
    // One probe at once, then one knock every 10 ms while the service stays away.
    await vi.advanceTimersByTimeAsync(20);
    expect(state.calls.filter((c) => c === 'service.health')).toHaveLength(3);
    expect(heard).toEqual([false]);

    state.up = true;
    await vi.advanceTimersByTimeAsync(10);
    expect(heard).toEqual([false, true]);
    // Back: no more knocking, however long nothing else calls.
    const probes = state.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.calls.length).toBe(probes);
  });

  it('does not call an unavailable answer of a reachable service a lost connection', async () => {
    const heard: boolean[] = [];
    const inner = fakeClient({ up: true, calls: [] });
    const watched = watchReachability(
      {
        ...inner,
        call: ((name: string, input: never) =>
          name === 'chat.cancel' ? Promise.reject(new ServiceError('unavailable', 'No model can answer now.')) : inner.call(name as 'service.health', input)) as Client['call'],
      },
      { retryMs: 10 },
    );
    watched.onChange((reachable) => heard.push(reachable));
    await expect(watched.client.call('chat.cancel', { message_id: 'msg_1' })).rejects.toThrow(/No model/);
    await vi.advanceTimersByTimeAsync(100);
    expect(heard).toEqual([]);
  });
});
