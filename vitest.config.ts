import { defineConfig } from 'vitest/config';

/** `vi.waitFor` waits up to 15 s unless a test says otherwise (vitest's own default is 1 s). */
const CEILINGS = 'test/support/ceilings.ts';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Two unit/contract files at a time (vitest's default on 2 cores is one): most of their time is
    // spent waiting on child processes (served mode, parser processes) and module imports, so the
    // second core would otherwise idle. The e2e project below runs in a group of its own after
    // them (`npm run test:soak` checks from each run's timings that no e2e file ran beside a unit
    // or contract file).
    maxWorkers: 2,
    projects: [
      // Timeouts are ceilings that catch a hang, never a speed requirement: the suite runs on 2 cores
      // beside other work (and `npm run test:soak` beside a CPU loader), where a test that takes 1 s
      // on a quiet machine can take 15. A passing test never waits for them.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', setupFiles: [CEILINGS], testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], environment: 'node', setupFiles: [CEILINGS], testTimeout: 60_000, hookTimeout: 60_000 } },
      // Real small models (SmolLM2 135M, all-MiniLM-L6-v2) fetched by `npm run fetch-test-models`:
      // what a user relies on with a real model, not the model's wit.
      { test: { name: 'real-models', include: ['test/real-models/**/*.test.ts'], environment: 'node', setupFiles: [CEILINGS], testTimeout: 120_000, hookTimeout: 120_000 } },
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
          // Two e2e files at a time: an e2e file spends most of its time waiting (on its served-mode
          // server, Chromium, the page), not computing — one at a time, the whole e2e part used a
          // third of the two cores. Measured on a quiet machine, 2026-11-23: 252 s for the 31 files
          // two at a time, against ~390 s one at a time.
          fileParallelism: true,
          // Each worker imports its modules (Playwright, axe, the support code) once for all the e2e
          // files it runs rather than once per file: ~3 s a file on a loaded 2-core machine. No e2e
          // file mocks modules or changes globals, so nothing leaks from one file into the next.
          isolate: false,
          // A group of its own, after the unit and contract files: a Chromium never runs beside a
          // unit or contract file.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
