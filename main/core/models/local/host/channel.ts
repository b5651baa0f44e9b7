import type { AgentTurnEvent } from '../../../platform/ports/providers.js';

/** Items pushed by callbacks, pulled by the async iterator. */
export class Channel<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private failure: unknown = null;

  push(item: T) {
    this.items.push(item);
    this.wake?.();
  }

  close(error?: unknown) {
    this.closed = true;
    if (error !== undefined) this.failure = error;
    this.wake?.();
  }

  /** Items in order; `merge` may fold an item into the one before it when both are waiting (a slow reader gets fewer, larger pieces). */
  async *drain(merge: (into: T, next: T) => T | null): AsyncIterable<T> {
    for (;;) {
      const first = this.items.shift();
      if (first !== undefined) {
        let item: T = first;
        for (let next = this.items[0]; next !== undefined; next = this.items[0]) {
          const merged = merge(item, next);
          if (merged === null) break;
          item = merged;
          this.items.shift();
        }
        yield item;
        continue;
      }
      if (this.closed) {
        if (this.failure !== null) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

/** Deltas waiting together become one: a reader busy for a moment gets one larger piece, not many small ones. */
export function mergeDeltas(into: AgentTurnEvent, next: AgentTurnEvent): AgentTurnEvent | null {
  return into.type === 'delta' && next.type === 'delta' ? { type: 'delta', text: into.text + next.text } : null;
}
