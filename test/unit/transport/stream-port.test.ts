import { EventEmitter } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_STREAM_OPEN, IPC_STREAM_PORT, type StreamMessage } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Caller } from '../../../main/core/platform/context.js';
import { INTERNAL_DETAIL, type LogError } from '../../../main/transport/ipc/error-payload.js';
import {
  pipeToPort,
  registerStreams,
  type MessagePortMainLike,
  type OpenStream,
} from '../../../main/transport/ipc/stream-port.js';
import { bootTestCore } from '../../support/core.js';
import { FakeIpcStreams } from '../../support/fake-ipc.js';

/** A MessagePortMain stand-in: records what is posted; `closeFromRenderer` is the other side leaving. */
class FakePort extends EventEmitter implements MessagePortMainLike {
  readonly posted: StreamMessage[] = [];
  started = false;
  postMessage(message: unknown): void {
    this.posted.push(message as StreamMessage);
  }
  start(): void {
    this.started = true;
  }
  close(): void {}
  closeFromRenderer(): void {
    this.emit('close');
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('pipeToPort', () => {
  it('posts every item as an event, in order, then end', async () => {
    async function* source() {
      yield { delta: 'a' };
      await tick();
      yield { delta: 'b' };
      yield { delta: 'c' };
    }
    const port = new FakePort();
    await pipeToPort(source(), port);
    expect(port.posted).toEqual([
      { type: 'event', event: { delta: 'a' } },
      { type: 'event', event: { delta: 'b' } },
      { type: 'event', event: { delta: 'c' } },
      { type: 'end' },
    ]);
    expect(port.started).toBe(true);
    expect(port.listenerCount('close')).toBe(0);
  });

  it('ends an empty source with end alone', async () => {
    const port = new FakePort();
    await pipeToPort((async function* () {})(), port);
    expect(port.posted).toEqual([{ type: 'end' }]);
  });

  it('posts a ServiceError as error with its payload, after the events before it', async () => {
    async function* source() {
      yield 1;
      throw new ServiceError('upstream_error', 'The model stopped answering.');
    }
    const port = new FakePort();
    const onError = vi.fn<LogError>();
    await pipeToPort(source(), port, onError);
    expect(port.posted).toEqual([
      { type: 'event', event: 1 },
      { type: 'error', error: { code: 'upstream_error', title: 'Upstream error', detail: 'The model stopped answering.', status: 502 } },
    ]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('posts any other failure as internal with a generic detail, and logs the real one', async () => {
    const boom = new TypeError('cannot read properties of undefined (reading "tokens") at /srv/secret.ts');
    async function* source(): AsyncGenerator<number> {
      yield 1;
      throw boom;
    }
    const port = new FakePort();
    const onError = vi.fn<LogError>();
    await pipeToPort(source(), port, onError);
    const last = port.posted.at(-1);
    expect(last).toEqual({ type: 'error', error: { code: 'internal', title: 'Internal error', detail: INTERNAL_DETAIL, status: 500 } });
    expect(JSON.stringify(port.posted)).not.toContain('secret');
    expect(onError).toHaveBeenCalledWith(expect.any(String), boom);
  });

  it('stops the source through return() when the renderer closes the port', async () => {
    let pulled = 0;
    let cleanedUp = false;
    async function* endless() {
      try {
        for (;;) {
          pulled++;
          yield pulled;
          await tick();
        }
      } finally {
        cleanedUp = true;
      }
    }
    const port = new FakePort();
    const piping = pipeToPort(endless(), port);
    await vi.waitFor(() => expect(port.posted.length).toBeGreaterThanOrEqual(3));
    port.closeFromRenderer();
    await piping;
    await tick();
    const pulledAtClose = pulled;
    await tick();
    await tick();
    expect(cleanedUp).toBe(true);
    expect(pulled).toBe(pulledAtClose);
    expect(port.posted.every((m) => m.type === 'event')).toBe(true);
    expect(port.listenerCount('close')).toBe(0);
  });

  it('returns at once on close even while the source waits on an upstream that never answers', async () => {
    let cleanedUp = false;
    const never = new Promise<never>(() => {});
    async function* stuck() {
      try {
        yield 'first';
        await never;
      } finally {
        cleanedUp = true;
      }
    }
    const port = new FakePort();
    const piping = pipeToPort(stuck(), port);
    await vi.waitFor(() => expect(port.posted.length).toBeGreaterThanOrEqual(1));
    port.closeFromRenderer();
    await expect(piping).resolves.toBeUndefined();
    // The generator cannot be interrupted mid-await: its finally waits for the upstream (or the signal).
    expect(cleanedUp).toBe(false);
    expect(port.posted).toEqual([{ type: 'event', event: 'first' }]);
  });

  it('stops when its abort signal fires, and does not post after it', async () => {
    let cleanedUp = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) {
          yield i;
          await tick();
        }
      } finally {
        cleanedUp = true;
      }
    }
    const port = new FakePort();
    const controller = new AbortController();
    const piping = pipeToPort(endless(), port, undefined, controller.signal);
    await vi.waitFor(() => expect(port.posted.length).toBeGreaterThanOrEqual(2));
    controller.abort();
    await piping;
    const count = port.posted.length;
    await tick();
    await tick();
    expect(cleanedUp).toBe(true);
    expect(port.posted.length).toBe(count);
    expect(port.posted.some((m) => m.type !== 'event')).toBe(false);
  });

  it('delivers through a real MessageChannel, and a close on the far side stops the source', async () => {
    const { port1, port2 } = new MessageChannel();
    const received: StreamMessage[] = [];
    port2.on('message', (message: StreamMessage) => received.push(message));
    let cleanedUp = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) {
          yield { n: i };
          await tick();
        }
      } finally {
        cleanedUp = true;
      }
    }
    const piping = pipeToPort(source(), port1);
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(3));
    port2.close();
    await piping;
    await vi.waitFor(() => expect(cleanedUp).toBe(true));
    expect(received.slice(0, 3)).toEqual([0, 1, 2].map((n) => ({ type: 'event', event: { n } })));
    port1.close();
  });
});

describe('registerStreams', () => {
  let core: ReturnType<typeof bootTestCore>;
  let ipcMain: FakeIpcStreams;
  let logError: ReturnType<typeof vi.fn<LogError>>;
  let openStream: ReturnType<typeof vi.fn<OpenStream>>;
  let dispose: () => void;
  const ports: MessagePort[] = [];

  beforeEach(() => {
    core = bootTestCore();
    ipcMain = new FakeIpcStreams();
    logError = vi.fn<LogError>();
    openStream = vi.fn<OpenStream>();
    dispose = registerStreams({
      ipcMain,
      MessageChannelMain: MessageChannel,
      openStream,
      desktopCaller: core.desktopCaller,
      isTrustedUrl: (url) => url.startsWith('app://parley/'),
      logError,
    });
  });
  afterEach(() => {
    dispose();
    for (const port of ports.splice(0)) port.close();
    core.remove();
  });

  /** The operation yields forever, one item a turn of the event loop; says what signal it got and whether its `finally` ran. */
  const endlessSource = () => {
    const state: { signal: AbortSignal | undefined; cleanedUp: boolean } = { signal: undefined, cleanedUp: false };
    openStream.mockImplementation(async function* (_op, _input, _caller, s) {
      state.signal = s;
      try {
        for (let i = 0; ; i++) {
          yield i;
          await tick();
        }
      } finally {
        state.cleanedUp = true;
      }
    });
    return state;
  };

  const open = (payload: unknown, url?: string | null) => {
    const answers = ipcMain.open(payload, url);
    ports.push(...answers.map((a) => a.port));
    return answers;
  };

  it('sends a port tagged with the stream id and pipes the operation into it, as the desktop profile', async () => {
    let caller: Caller | undefined;
    openStream.mockImplementation(async function* (_operation, _input, who) {
      caller = who;
      yield { delta: 'Hel' };
      yield { delta: 'lo' };
    });
    const [answer, ...more] = open({ stream_id: 's-1', operation: 'chat.send', input: { message: 'hi' } });
    expect(more).toHaveLength(0);
    if (!answer) throw new Error('no answer');
    expect(answer.channel).toBe(IPC_STREAM_PORT);
    expect(answer.message).toEqual({ stream_id: 's-1' });
    await answer.done;
    expect(answer.received).toEqual([
      { type: 'event', event: { delta: 'Hel' } },
      { type: 'event', event: { delta: 'lo' } },
      { type: 'end' },
    ]);
    expect(openStream).toHaveBeenCalledWith('chat.send', { message: 'hi' }, expect.anything(), expect.any(AbortSignal));
    expect(caller?.user.role).toBe('super_admin');
    expect(caller?.via).toBe('ipc');
  });

  it('turns a synchronous throw of openStream into the stream’s error message', async () => {
    openStream.mockImplementation((operation) => {
      throw new ServiceError('not_found', `There is no streaming operation named ${JSON.stringify(operation)}.`);
    });
    const [answer] = open({ stream_id: 's-2', operation: 'threads.list' });
    await answer?.done;
    expect(answer?.received).toEqual([
      { type: 'error', error: expect.objectContaining({ code: 'not_found', detail: 'There is no streaming operation named "threads.list".' }) },
    ]);
  });

  it('answers a malformed request that has a stream id with invalid_argument on its port', async () => {
    const [answer] = open({ stream_id: 's-3', operation: 7 });
    await answer?.done;
    expect(answer?.received).toEqual([{ type: 'error', error: expect.objectContaining({ code: 'invalid_argument' }) }]);
    expect(openStream).not.toHaveBeenCalled();
  });

  it('drops and logs a request without a stream id', () => {
    expect(open({ operation: 'chat.send' })).toHaveLength(0);
    expect(open(null)).toHaveLength(0);
    expect(logError).toHaveBeenCalledTimes(2);
    expect(openStream).not.toHaveBeenCalled();
  });

  it('gives a foreign frame no port and runs nothing', () => {
    expect(open({ stream_id: 's-4', operation: 'chat.send' }, 'https://evil.example/')).toHaveLength(0);
    expect(open({ stream_id: 's-5', operation: 'chat.send' }, null)).toHaveLength(0);
    expect(openStream).not.toHaveBeenCalled();
    expect(logError).toHaveBeenCalled();
  });

  it('aborts the signal and stops the source when the renderer closes its port', async () => {
    const source = endlessSource();
    const [answer] = open({ stream_id: 's-6', operation: 'chat.send' });
    if (!answer) throw new Error('no answer');
    await vi.waitFor(() => expect(answer.received.length).toBeGreaterThanOrEqual(2));
    answer.port.close();
    await vi.waitFor(() => expect(source.cleanedUp).toBe(true));
    expect(source.signal?.aborted).toBe(true);
  });

  it('stops listening and stops running streams when disposed', async () => {
    const source = endlessSource();
    const [answer] = open({ stream_id: 's-7', operation: 'chat.send' });
    await vi.waitFor(() => expect(answer?.received.length).toBeGreaterThanOrEqual(1));
    dispose();
    expect(ipcMain.listeners.has(IPC_STREAM_OPEN)).toBe(false);
    expect(source.signal?.aborted).toBe(true);
    await vi.waitFor(() => expect(source.cleanedUp).toBe(true));
  });
});
