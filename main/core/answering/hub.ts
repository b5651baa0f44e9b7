import type { ChatEvent, Sequenced, StreamEvent } from '../../../shared/events.js';
import type { AbortReason } from './streamed-answer.js';
import type { RunHandle, StreamHubPort } from '../platform/ports/answers.js';

interface Run {
  log: Sequenced[];
  /** The answer is stored: nobody waits for it any more, though its stream may still carry events. */
  settled: boolean;
  done: boolean;
  controller: AbortController;
  wake: Set<() => void>;
  finished: Promise<void>;
  resolveFinished: () => void;
}

/**
 * Live answers by message id (chat) or comparison id (model comparisons). Generation runs independently of whoever watches it: a client that
 * goes away stops watching, not generating, and can re-attach and replay from any event id.
 * Finished runs stay replayable for `retainMs`.
 */
export class StreamHub implements StreamHubPort {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly retainMs = 10 * 60_000) {}

  start<E extends StreamEvent = ChatEvent>(messageId: string): RunHandle<E> {
    let resolveFinished = () => {};
    const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    const run: Run = { log: [], settled: false, done: false, controller: new AbortController(), wake: new Set(), finished, resolveFinished };
    this.runs.set(messageId, run);
    const notify = () => {
      for (const wake of run.wake) wake();
      run.wake.clear();
    };
    return {
      signal: run.controller.signal,
      emit: (event) => {
        if (run.done) return;
        run.log.push({ ...event, id: run.log.length });
        notify();
      },
      settle: () => {
        run.settled = true;
        run.resolveFinished();
      },
      end: () => {
        if (run.done) return;
        run.done = true;
        run.settled = true;
        notify();
        run.resolveFinished();
        setTimeout(() => {
          if (this.runs.get(messageId) === run) this.runs.delete(messageId);
        }, this.retainMs).unref();
      },
    };
  }

  /** True while this process has the answer in memory: being written, or ended and still replayable. */
  holds(messageId: string): boolean {
    return this.runs.has(messageId);
  }

  isRunning(messageId: string): boolean {
    const run = this.runs.get(messageId);
    return run !== undefined && !run.settled;
  }

  /** Resolves when the answer has been stored (settled: its stream may go on a little; at once if it is not running). */
  async finished(messageId: string): Promise<void> {
    await this.runs.get(messageId)?.finished;
  }

  /** Asks a running answer to stop; resolves once it has been stored. False when nothing runs. */
  async cancel(messageId: string): Promise<boolean> {
    const run = this.runs.get(messageId);
    if (!run || run.settled) return false;
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

  /**
   * App shutdown: every running answer is asked to stop (`shutdown`, so it is stored as
   * interrupted with its text so far); resolves once each has been stored and ended.
   */
  async shutdown(): Promise<void> {
    const running = [...this.runs.values()].filter((run) => !run.settled);
    for (const run of running) run.controller.abort('shutdown' satisfies AbortReason);
    await Promise.all(running.map((run) => run.finished));
  }

  /** How many answers are being written now. */
  get running(): number {
    let n = 0;
    for (const run of this.runs.values()) if (!run.settled) n++;
    return n;
  }
}
