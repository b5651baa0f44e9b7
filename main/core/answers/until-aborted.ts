/**
 * Iterates `source` until it ends or `signal` aborts, without waiting for a provider that ignores
 * the signal. The abort listener is removed when the iteration ends: one signal (an agent's, an
 * answer's) outlives many iterations, and each left a listener behind before.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<IteratorResult<T>>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    while (true) {
      const result = await Promise.race([iterator.next(), aborted]);
      if (result.done) return;
      yield result.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    void iterator.return?.()?.catch(() => {});
  }
}
