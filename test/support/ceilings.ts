import { vi } from 'vitest';

/**
 * How long `vi.waitFor` waits for a condition when the test names no timeout: vitest's own default
 * (1 s) is a speed requirement in disguise, and the suite runs on 2 cores beside other work (and
 * `npm run test:soak` beside a CPU loader), where a condition true in 20 ms on a quiet machine can
 * take seconds. A ceiling only: a passing wait returns as soon as its condition holds; only a
 * failing one waits this long. Loaded for every file by vitest.config.ts (`setupFiles`).
 */
export const WAIT_FOR_CEILING_MS = 15_000;

const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback: Parameters<typeof waitFor>[0], options?: Parameters<typeof waitFor>[1]) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: WAIT_FOR_CEILING_MS, ...options })) as typeof vi.waitFor;
