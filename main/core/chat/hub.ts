import type { ChatEvent, Sequenced, StreamEvent } from '../../../shared/events.js';

/** Why a run's signal was aborted: the user cancelled, or the app is shutting down. */
export type AbortReason = 'cancel' | 'shutdown';

interface Run {
  log: Sequenced[];
  done: boolean;
  controller: AbortController;
  wake: Set<() => void>;
  finished: Promise<void>;
  resolveFinished: () => void;
  /** Saves what was produced, synchronously, when the app stops mid-answer. */
  onShutdown: (() => void) | undefined;
}

export interface RunHandle<E extends StreamEvent = ChatEvent> {
  signal: AbortSignal;
  emit(event: E): void;
  /** Ends the stream; subscribers drain the log and stop. */
  end(): void;
  /** Registers what to save, synchronously, if the app stops while this runs. */
  onShutdown(save: () => void): void;
}

/**
 * Live answers by message id (chat) or comparison id (model comparisons). Generation runs independently of whoever watches it: a client that
 * goes away stops watching, not generating, and can re-attach and replay from any event id.
 * Finished runs stay replayable for `retainMs`.
 */
export class StreamHub {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly retainMs = 10 * 60_000) {}

  start<E extends StreamEvent = ChatEvent>(messageId: string): RunHandle<E> {
    let resolveFinished = () => {};
    const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    const run: Run = { log: [], done: false, controller: new AbortController(), wake: new Set(), finished, resolveFinished, onShutdown: undefined };
    this.runs.set(messageId, run);
    const notify = () => {
      for (const wake of run.wake) wake();
      run.wake.clear();
    };
    return {
      signal: run.controller.signal,
      onShutdown: (save) => {
        run.onShutdown = save;
      },
      emit: (event) => {
        if (run.done) return;
        run.log.push({ ...event, id: run.log.length });
        notify();
      },
      end: () => {
        if (run.done) return;
        run.done = true;
        notify();
        run.resolveFinished();
        setTimeout(() => {
          if (this.runs.get(messageId) === run) this.runs.delete(messageId);
        }, this.retainMs).unref();
      },
    };
  }

  isRunning(messageId: string): boolean {
    const run = this.runs.get(messageId);
    return run !== undefined && !run.done;
  }

  /** Resolves when the answer has ended and been stored (at once if it is not running). */
  async finished(messageId: string): Promise<void> {
    await this.runs.get(messageId)?.finished;
  }

  /** Asks a running answer to stop; resolves once it has been stored. False when nothing runs. */
  async cancel(messageId: string): Promise<boolean> {
    const run = this.runs.get(messageId);
    if (!run || run.done) return false;
    run.controller.abort('cancel' satisfies AbortReason);
    await run.finished;
    return true;
  }

  /** Events after `afterId` (-1: from the start), then live ones until the end; undefined if not in memory. */
  subscribe<E extends StreamEvent = ChatEvent>(messageId: string, afterId = -1): AsyncIterable<Sequenced<E>> | undefined {
    const run = this.runs.get(messageId);
    if (!run) return undefined;
    return {
      [Symbol.asyncIterator]: () => {
        let next = Math.max(0, afterId + 1);
        let stopped = false;
        return {
          next: async (): Promise<IteratorResult<Sequenced<E>>> => {
            while (!stopped) {
              const event = run.log[next];
              if (event) {
                next++;
                return { value: event as Sequenced<E>, done: false };
              }
              if (run.done) break;
              await new Promise<void>((resolve) => run.wake.add(resolve));
            }
            return { value: undefined, done: true };
          },
          return: async (): Promise<IteratorResult<Sequenced<E>>> => {
            stopped = true;
            return { value: undefined, done: true };
          },
        };
      },
    };
  }

  /** App shutdown: every running answer is saved as it stands and marked interrupted. */
  shutdown(): void {
    for (const run of this.runs.values()) {
      if (run.done) continue;
      run.onShutdown?.();
      run.controller.abort('shutdown' satisfies AbortReason);
    }
  }
}
