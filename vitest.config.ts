import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Two unit/contract files at a time (vitest's default on 2 cores is one): most of their time is
    // spent waiting on child processes (served mode, parser processes) and module imports, so the
    // second core would otherwise idle. The e2e project below has `fileParallelism: false`, which
    // vitest 4 runs as its own group after every other file, one file at a time: a Chromium never
    // runs beside another file (`npm run test:soak` checks that from each run's timings).
    maxWorkers: 2,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], environment: 'node', testTimeout: 20_000 } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // Finds (or installs) the Chromium every e2e file drives.
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One browser at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
