import { z } from 'zod';
import { IPC_STREAM_OPEN, IPC_STREAM_PORT, type StreamMessage } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Caller } from '../../core/platform/context.js';
import { fieldErrors } from '../../core/platform/field-errors.js';
import { toIpcError, type LogError } from './error-payload.js';
import { isTrustedSender, type IpcSenderLike } from './sender.js';

/** The slice of Electron's `MessagePortMain` a stream needs (Node's worker_threads port fits too). */
export interface MessagePortMainLike {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  /** 'close': the other side closed its end, i.e. the renderer stopped listening. */
  on(event: 'close', listener: () => void): unknown;
  removeListener(event: 'close', listener: () => void): unknown;
}

/**
 * Posts each item of `source` as a `StreamMessage`, then `end`, or `error` if it throws. When the
 * renderer closes its end (or `signal` aborts) the source is stopped through `return()`, so a
 * generator's `finally` runs (persistence of a cancelled answer lives there, not here).
 * Never rejects: failures go to the port, unexpected ones also to `onError`.
 */
export async function pipeToPort(source: AsyncIterable<unknown>, port: MessagePortMainLike, onError?: LogError, signal?: AbortSignal): Promise<void> {
  let stopped = false;
  let iterator: AsyncIterator<unknown> | undefined;
  let wake: () => void = () => {};
  const whenStopped = new Promise<void>((resolve) => (wake = resolve));
  const post = (message: StreamMessage) => {
    if (!stopped) port.postMessage(message);
  };
  // return() on an async generator that is mid-step is queued until that step settles, so the
  // generator ends at its next `yield` (or sooner, if it watches the abort signal it was given).
  const stop = () => {
    if (stopped) return;
    stopped = true;
    wake();
    const it = iterator;
    if (!it?.return) return;
    void (async () => {
      try {
        await it.return?.();
      } catch (error) {
        onError?.('A stream failed while stopping', error);
      }
    })();
  };
  port.on('close', stop);
  signal?.addEventListener('abort', stop, { once: true });
  port.start();
  try {
    if (signal?.aborted) return;
    iterator = source[Symbol.asyncIterator]();
    while (!stopped) {
      const next = iterator.next();
      // A step that fails after the stop has nobody to report to (it is usually the stop itself).
      next.catch(() => undefined);
      // Racing the stop lets the pipe end at once even if the source is stuck waiting upstream.
      const step = await Promise.race([next, whenStopped]);
      if (stopped || step === undefined) return;
      if (step.done) {
        post({ type: 'end' });
        return;
      }
      post({ type: 'event', event: step.value });
    }
  } catch (error) {
    if (stopped) return;
    const { payload, unexpected } = toIpcError(error);
    if (unexpected) onError?.('A stream failed unexpectedly', error);
    post({ type: 'error', error: payload });
  } finally {
    port.removeListener('close', stop);
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * Opens the stream of a streaming operation. `signal` aborts when the renderer closes the stream
 * or the app shuts down, so a source can stop waiting on its upstream at once.
 */
export type OpenStream = (operation: string, input: unknown, caller: Caller, signal: AbortSignal) => AsyncIterable<unknown>;

/** The event of `ipcMain.on`: who sent it, and how to answer with a transferred port. */
export interface StreamOpenEventLike<P> extends IpcSenderLike {
  readonly sender: { postMessage(channel: string, message: unknown, transfer: P[]): void };
}

export interface IpcMainOnLike<P> {
  on(channel: string, listener: (event: StreamOpenEventLike<P>, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: StreamOpenEventLike<P>, ...args: unknown[]) => void): unknown;
}

export interface StreamDeps<P extends MessagePortMainLike> {
  ipcMain: IpcMainOnLike<P>;
  /** Electron's `MessageChannelMain`, injected: tests pass Node's `MessageChannel` or a fake. */
  MessageChannelMain: new () => { port1: P; port2: P };
  openStream: OpenStream;
  desktopCaller: () => Caller;
  isTrustedUrl: (url: string) => boolean;
  logError: LogError;
}

const StreamOpenPayload = z.strictObject({
  stream_id: z.string().min(1).max(100),
  operation: z.string().min(1).max(200),
  input: z.unknown().optional(),
});

function streamIdOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('stream_id' in payload)) return undefined;
  const id = payload.stream_id;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : undefined;
}

/** Runs `open` inside the iteration, so a synchronous throw becomes the stream's `error` message. */
async function* guarded(open: () => AsyncIterable<unknown>): AsyncGenerator<unknown> {
  yield* open();
}

/**
 * Serves `IPC_STREAM_OPEN`: answers each request with a fresh MessagePort (sent to the frame that
 * asked, tagged with its `stream_id`) and pipes the operation's events into it. Returns a disposer
 * that stops listening and stops every stream still running (app shutdown).
 */
export function registerStreams<P extends MessagePortMainLike>(deps: StreamDeps<P>): () => void {
  const running = new Set<AbortController>();

  const listener = (event: StreamOpenEventLike<P>, payload: unknown) => {
    // A foreign frame gets no answer at all: it must not learn anything about the service.
    if (!isTrustedSender(event, deps.isTrustedUrl)) {
      deps.logError('Refused a stream requested by a foreign frame', new Error(event.senderFrame?.url ?? 'no frame'));
      return;
    }
    const parsed = StreamOpenPayload.safeParse(payload);
    const streamId = parsed.success ? parsed.data.stream_id : streamIdOf(payload);
    // Without a stream id there is no way to address an answer: a bug in the preload, logged.
    if (streamId === undefined) {
      deps.logError('Dropped a stream request without a stream_id', payload);
      return;
    }
    const controller = new AbortController();
    const open = parsed.success
      ? () => deps.openStream(parsed.data.operation, parsed.data.input, deps.desktopCaller(), controller.signal)
      : () => {
          throw new ServiceError('invalid_argument', 'A stream request must be { stream_id, operation, input? }.', fieldErrors(parsed.error));
        };
    const { port1, port2 } = new deps.MessageChannelMain();
    event.sender.postMessage(IPC_STREAM_PORT, { stream_id: streamId }, [port2]);
    const abort = () => controller.abort();
    port1.on('close', abort);
    running.add(controller);
    void pipeToPort(guarded(open), port1, deps.logError, controller.signal).finally(() => {
      running.delete(controller);
      port1.removeListener('close', abort);
    });
  };

  deps.ipcMain.on(IPC_STREAM_OPEN, listener);
  return () => {
    deps.ipcMain.removeListener(IPC_STREAM_OPEN, listener);
    for (const controller of running) controller.abort();
  };
}
