/**
 * A provider's stream of events that a test pushes one by one: `null` ends it, an Error fails it.
 * Counts what it gave out (`taken`) and whether its reader let go of it (`returned`).
 */
export class PushedSource<E extends { type: string }> implements AsyncIterable<E> {
  private readonly queue: Array<E | Error | null> = [];
  private wake: (() => void) | null = null;
  taken = 0;
  returned = false;
  push(item: E | Error | null) {
    this.queue.push(item);
    this.wake?.();
  }
  delta(text: string) {
    this.push({ type: 'delta', text } as unknown as E);
  }
  async *[Symbol.asyncIterator]() {
    try {
      while (true) {
        const item = this.queue.shift();
        if (item === undefined) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        if (item === null) return;
        if (item instanceof Error) throw item;
        this.taken++;
        yield item;
      }
    } finally {
      this.returned = true;
    }
  }
}
