/**
 * Where a provider's events enter an answer: text deltas are coalesced so that a fast model does
 * not cost one event (one trip through the pipeline, one SSE write, one client-side parse) per
 * token, and the iteration stops at once when the answer's signal aborts.
 *
 * Why by time and not per event-loop turn: a local model writes a token every ~0.5–1 ms, each in
 * its own turn, so "tokens that arrive together" were never together (measured: 200 SSE events for
 * 200 tokens) and Parley's per-token work (~0.3 ms of CPU, mostly the socket write) made it 30–55%
 * slower than llama.cpp alone. So:
 * - the first delta, and any delta arriving `intervalMs` or more after the previous one went out,
 *   goes out at once — a model slower than one token per `intervalMs` (every remote model, most
 *   local ones) streams token by token, unchanged;
 * - deltas arriving faster wait, appended to one string (O(1) per token), and go out together at
 *   most `intervalMs` after the previous one: ≤ 1000/intervalMs events per second;
 * - anything else the provider sends (usage, a tool call) flushes the waiting text first, then
 *   goes out at once: nothing is reordered;
 * - the end, a failure and an abort flush the waiting text at once: nothing is dropped, and the
 *   text stored is the text streamed.
 *
 * The provider is read eagerly (its events are buffered here), so a model never waits for the
 * pipeline between two tokens. On abort this stops without waiting for a provider that ignores the
 * signal; its abort listener is removed when the iteration ends (one signal outlives many turns).
 */

export type DeltaEvent = { type: 'delta'; text: string };

/** A screen shows at most one frame per ~16 ms: text coming faster than that is seen no sooner. */
export const DELTA_INTERVAL_MS = 16;

/** The clock the gate runs on; tests pass a fake one. */
export interface DeltaClock {
  now(): number;
  /** Calls `fn` after `ms`; answers a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realDeltaClock: DeltaClock = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface CoalesceOptions {
  intervalMs?: number | undefined;
  clock?: DeltaClock | undefined;
}

function isDelta(event: { type: string }): event is DeltaEvent {
  return event.type === 'delta';
}

export async function* coalesceDeltas<E extends { type: string }>(source: AsyncIterable<E>, signal: AbortSignal, options: CoalesceOptions = {}): AsyncGenerator<E> {
  const interval = options.intervalMs ?? DELTA_INTERVAL_MS;
  const clock = options.clock ?? realDeltaClock;
  const iterator = source[Symbol.asyncIterator]();
  const delta = (text: string) => ({ type: 'delta', text }) as DeltaEvent as unknown as E;

  /** Events ready to go out, in order (a delta lands here when something else came after it). */
  const ready: E[] = [];
  /** Text waiting behind the gate: always after everything in `ready`. */
  let text = '';
  let ended = false;
  let failed = false;
  let failure: unknown = null;
  let stopped = false;
  /** When the last delta went out (-Infinity: none yet, so the first goes at once). */
  let sentAt = -Infinity;
  let wake: (() => void) | null = null;
  /** Whether the reader waits for the gate only (a new delta changes nothing then). */
  let gated = false;
  const rouse = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  signal.addEventListener('abort', rouse, { once: true });

  // The pump: reads the provider as fast as it writes; per delta, one string append.
  void (async () => {
    try {
      while (!stopped) {
        const next = await iterator.next();
        if (next.done || stopped) break;
        const event = next.value;
        if (isDelta(event)) {
          text += event.text;
          if (!gated) rouse();
        } else {
          if (text) ready.push(delta(text));
          text = '';
          ready.push(event);
          rouse();
        }
      }
    } catch (error) {
      failed = true;
      failure = error;
    }
    ended = true;
    rouse();
  })();

  try {
    for (;;) {
      if (signal.aborted) {
        // What the provider wrote before the abort goes out, then nothing more.
        const rest = ready.splice(0);
        if (text) rest.push(delta(text));
        text = '';
        yield* rest;
        return;
      }
      const event = ready.shift();
      if (event !== undefined) {
        if (isDelta(event)) sentAt = clock.now();
        yield event;
        continue;
      }
      if (text) {
        const wait = ended ? 0 : sentAt + interval - clock.now();
        if (wait <= 0) {
          const out = text;
          text = '';
          sentAt = clock.now();
          yield delta(out);
          continue;
        }
        gated = true;
        await new Promise<void>((resolve) => {
          const cancel = clock.after(wait, rouse);
          wake = () => {
            cancel();
            resolve();
          };
        });
        gated = false;
        continue;
      }
      if (failed) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stopped = true;
    wake = null;
    signal.removeEventListener('abort', rouse);
    if (!ended) void iterator.return?.()?.catch(() => {});
  }
}
