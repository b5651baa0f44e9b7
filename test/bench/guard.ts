/**
 * One bench must not take the others down with it. A bench that throws is reported and skipped; a
 * bench whose promise can no longer settle (a child process gone without an answer leaves nothing
 * pending, and Node would end the whole run with exit code 13, "unsettled top-level await") is
 * noticed when the event loop runs dry — `beforeExit` — and skipped too, so the rest still run and
 * its goals read "not measured".
 */
const STALLED = Symbol('stalled');

export async function guarded<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  let stall = () => {};
  const stalled = new Promise<typeof STALLED>((resolve) => {
    stall = () => resolve(STALLED);
  });
  const onBeforeExit = () => stall();
  process.on('beforeExit', onBeforeExit);
  try {
    const result = await Promise.race([run(), stalled]);
    if (result === STALLED) {
      process.stdout.write(`\n${name}: did not finish (its work stopped with nothing left pending); its figures are missing\n`);
      return undefined;
    }
    return result;
  } catch (error) {
    process.stdout.write(`\n${name}: failed — ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  } finally {
    process.off('beforeExit', onBeforeExit);
  }
}
