import { describe, expect, it } from 'vitest';
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

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('watchReachability', () => {
  it('says once that the service is gone, knocks until it answers, and says once that it is back', async () => {
    const state = { up: false, calls: [] as string[] };
    const watched = watchReachability(fakeClient(state), { retryMs: 10 });
    const heard: boolean[] = [];
    watched.onChange((reachable) => heard.push(reachable));

    await expect(watched.client.call('threads.list', { limit: 1 })).rejects.toThrow(/Could not reach/);
    await expect(watched.client.call('datasets.list', { limit: 1 })).rejects.toThrow(/Could not reach/);
    await until(() => state.calls.filter((c) => c === 'service.health').length >= 3);
    expect(heard).toEqual([false]);

    state.up = true;
    await until(() => heard.length === 2);
    expect(heard).toEqual([false, true]);
    const probes = state.calls.length;
    await new Promise((r) => setTimeout(r, 40));
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
    await new Promise((r) => setTimeout(r, 30));
    expect(heard).toEqual([]);
  });
});
