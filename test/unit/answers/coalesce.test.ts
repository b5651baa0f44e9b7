/**
 * Where provider events enter an answer (answers/coalesce.ts): fast deltas are coalesced behind a
 * gate on a clock the test drives; nothing is reordered or dropped; the first delta and slow ones
 * go out at once; the end, a failure and an abort flush at once; an abort stops the reading at once.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { coalesceDeltas, type DeltaClock } from '../../../main/core/answering/coalesce.js';
import { PushedSource } from '../../support/pushed-source.js';

type Event = { type: 'delta'; text: string } | { type: 'usage'; input_tokens: number; output_tokens: number } | { type: 'tool_call'; name: string };

const Source = PushedSource<Event>;

/** A clock the test moves by hand; timers fire when it passes them. */
function manualClock(): DeltaClock & { advance: (ms: number) => void; pending: () => number } {
  let now = 1000;
  let timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
    pending: () => timers.length,
  };
}

/** Reads `events` in the background, recording what comes out. */
function reader(events: AsyncIterable<Event>) {
  const seen: Event[] = [];
  let error: unknown = null;
  const done = (async () => {
    try {
      for await (const event of events) seen.push(event);
    } catch (e) {
      error = e;
    }
  })();
  return { seen, done, error: () => error, texts: () => seen.flatMap((e) => (e.type === 'delta' ? [e.text] : [])) };
}

describe('coalesceDeltas', () => {
  it('sends the first delta at once, then what arrives within the interval as one delta when it has passed', async () => {
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock }));
    source.delta('a');
    await expect.poll(() => r.texts()).toEqual(['a']);
    for (const t of ['b', 'c', 'd']) source.delta(t);
    await expect.poll(() => source.taken).toBe(4);
    // Read from the provider already (it never waits for the pipeline), held behind the gate.
    expect(r.texts()).toEqual(['a']);
    clock.advance(15);
    await Promise.resolve();
    expect(r.texts()).toEqual(['a']);
    clock.advance(1);
    await expect.poll(() => r.texts()).toEqual(['a', 'bcd']);
    source.push(null);
    await r.done;
    expect(r.texts().join('')).toBe('abcd');
  });

  it('a delta that comes an interval or more after the last one goes out at once: slow models stream token by token', async () => {
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock }));
    for (const word of ['one', ' two', ' three']) {
      source.delta(word);
      await expect.poll(() => r.texts().at(-1)).toBe(word);
      clock.advance(20);
    }
    expect(r.texts()).toEqual(['one', ' two', ' three']);
    expect(clock.pending()).toBe(0);
    source.push(null);
    await r.done;
  });

  it('anything else (a tool call, the usage) flushes the held text first and goes out at once: nothing is reordered', async () => {
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock }));
    source.delta('x');
    await expect.poll(() => r.seen.length).toBe(1);
    source.delta('y');
    source.delta('z');
    source.push({ type: 'tool_call', name: 'search' });
    source.delta('after');
    await expect.poll(() => r.seen.length).toBe(3);
    expect(r.seen).toEqual([
      { type: 'delta', text: 'x' },
      { type: 'delta', text: 'yz' },
      { type: 'tool_call', name: 'search' },
    ]);
    source.push({ type: 'usage', input_tokens: 2, output_tokens: 5 });
    source.push(null);
    await r.done;
    expect(r.seen.slice(3)).toEqual([
      { type: 'delta', text: 'after' },
      { type: 'usage', input_tokens: 2, output_tokens: 5 },
    ]);
  });

  it('the end flushes the held text at once, without waiting for the gate', async () => {
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock }));
    source.delta('a');
    await expect.poll(() => r.texts()).toEqual(['a']);
    source.delta('b');
    source.push(null);
    await r.done;
    expect(r.texts()).toEqual(['a', 'b']);
  });

  it('a failure mid-answer gives out the text read before it, then throws', async () => {
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock }));
    source.delta('w1');
    await expect.poll(() => r.texts()).toEqual(['w1']);
    source.delta(' w2');
    source.push(new Error('upstream broke'));
    await r.done;
    expect(r.texts()).toEqual(['w1', ' w2']);
    expect(String(r.error())).toMatch(/upstream broke/);
  });

  it('a failure before any output throws with nothing given out (so another model may take over)', async () => {
    const source = new Source();
    const r = reader(coalesceDeltas(source, new AbortController().signal, { clock: manualClock() }));
    source.push(new Error('refused'));
    await r.done;
    expect(r.seen).toEqual([]);
    expect(String(r.error())).toMatch(/refused/);
  });

  it('an abort gives out the held text, stops at once though the source never yields again, and tells the source to stop', async () => {
    const controller = new AbortController();
    const source = new Source();
    const clock = manualClock();
    const r = reader(coalesceDeltas(source, controller.signal, { intervalMs: 16, clock }));
    source.delta('So ');
    await expect.poll(() => r.texts()).toEqual(['So ']);
    source.delta('far');
    await expect.poll(() => clock.pending()).toBe(1); // 'far' waits behind the gate
    controller.abort('cancel');
    await r.done;
    expect(r.texts()).toEqual(['So ', 'far']);
    expect(clock.pending()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // The provider's generator is asked to stop (it does once its pending read settles).
    source.push(null);
    await expect.poll(() => source.returned).toBe(true);
  });

  it('removes its abort listener when the iteration ends, however many turns share one signal', async () => {
    const controller = new AbortController();
    for (let turn = 0; turn < 20; turn++) {
      const source = new Source();
      source.delta(`turn ${turn}`);
      source.push(null);
      const seen: string[] = [];
      for await (const event of coalesceDeltas(source, controller.signal)) if (event.type === 'delta') seen.push(event.text);
      expect(seen).toEqual([`turn ${turn}`]);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a reader that stops early stops the source', async () => {
    const source = new Source();
    const clock = manualClock();
    source.delta('a');
    const events = coalesceDeltas(source, new AbortController().signal, { intervalMs: 16, clock });
    const seen: string[] = [];
    for await (const event of events) {
      if (event.type === 'delta') seen.push(event.text);
      if (seen.length === 1) {
        source.delta('b');
        source.delta('c');
        await expect.poll(() => source.taken).toBe(3);
        break;
      }
    }
    expect(seen).toEqual(['a']);
    source.push(null);
    await expect.poll(() => source.returned).toBe(true);
  });
});
