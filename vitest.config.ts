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
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: [CEILINGS],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // As for the contract files below: a worker imports what its files share (the core, for ~30
          // of them) once, not once per file: 184 s → 121 s for the unit project (imports 84 s →
          // 14 s). No unit file mocks a module; the few that spy on process.stdout, fake timers or
          // set PARLEY_INGEST_TEST_HOOKS restore them in afterEach or finally. A file that needs a
          // fresh module state must not rely on being alone in its process.
          isolate: false,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          // What only PostgreSQL has (migrations racing, several instances): the contract-postgres project below.
          exclude: ['test/contract/postgres/**'],
          environment: 'node',
          setupFiles: [CEILINGS],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each worker imports the whole core (main/boot.ts and the HTTP app, ~1-6 s a file by the
          // load) once for all the contract files it runs, not once per file: the contract project
          // took 121 s instead of 168 s (imports 15 s instead of 88 s), docs/testing.md "Suite time".
          // Every contract file boots its own core over its own temporary data directory, and none
          // mocks modules, stubs globals or changes the environment, so nothing a test relies on
          // carries from one file into the next.
          isolate: false,
        },
      },
      // PostgreSQL (issue 33, the team server): each core a file boots gets a fresh database (a copy of
      // one migrated for the run) on the PostgreSQL with pgvector that test/support/postgres-global-setup.ts
      // starts (test/support/test-storage.ts). `postgres`: what only PostgreSQL has (migrations racing,
      // several instances, nginx in front), in every run. `contract-postgres`: every other contract
      // file again on PostgreSQL, `npm run test:postgres` (.ci/run runs it after `npm test`: the two
      // would not fit the suite's 8 minutes together). test/contract/sqlite/ holds what only SQLite has.
      ...(['postgres', 'contract-postgres'] as const).map((name) => ({
        test: {
          name,
          include: name === 'postgres' ? ['test/contract/postgres/**/*.test.ts'] : ['test/contract/**/*.test.ts'],
          exclude: name === 'postgres' ? [] : ['test/contract/sqlite/**', 'test/contract/postgres/**'],
          environment: 'node' as const,
          env: { PARLEY_TEST_STORAGE: 'postgres' },
          globalSetup: ['test/support/postgres-global-setup.ts'],
          setupFiles: [CEILINGS],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      })),
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
