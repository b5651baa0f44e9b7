import { defineConfig } from 'vitest/config';

/** `vi.waitFor` waits up to 15 s unless a test says otherwise (vitest's own default is 1 s). */
const CEILINGS = 'test/support/ceilings.ts';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Two unit/contract files at a time (vitest's default on 2 cores is one): most of their time is
    // spent waiting on child processes (served mode, parser processes) and module imports, so the
    // second core would otherwise idle. The e2e project below runs in a group of its own after
    // them, one file at a time (`npm run test:soak` checks from each run's timings that no e2e file
    // ran beside another file).
    maxWorkers: 2,
    projects: [
      // Timeouts are ceilings that catch a hang, never a speed requirement: the suite runs on 2 cores
      // beside other work (and `npm run test:soak` beside a CPU loader), where a test that takes 1 s
      // on a quiet machine can take 15. A passing test never waits for them.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', setupFiles: [CEILINGS], testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], environment: 'node', setupFiles: [CEILINGS], testTimeout: 60_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          setupFiles: [CEILINGS],
          // Finds (or installs) the Chromium every e2e file drives.
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser at a time on a 2-core machine.
          fileParallelism: false,
          // One worker runs every e2e file, its modules (Playwright, axe, the support code) imported
          // once rather than once per file: ~3 s a file on a loaded 2-core machine. No e2e file
          // mocks modules or changes globals, so nothing leaks from one file into the next.
          isolate: false,
          // A group of its own, after the unit and contract files (vitest requires one for a
          // project whose worker count differs): a Chromium never runs beside another file.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
