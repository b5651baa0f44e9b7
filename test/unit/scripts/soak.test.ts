import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eOverlaps, failuresOf, parseArgs } from '../../../scripts/soak.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const file = (path: string, startTime: number, endTime: number, extra: Record<string, unknown> = {}) => ({ name: join(ROOT, path), startTime, endTime, ...extra });

describe('scripts/soak.mjs (npm run test:soak)', () => {
  it('runs 10 times beside one loader by default; flags, environment and vitest arguments after --', () => {
    expect(parseArgs([], {})).toEqual({ runs: 10, load: 1, build: true, keepGoing: false, vitestArgs: [] });
    expect(parseArgs(['--runs', '3', '--load', '2', '--no-build', '--', '--project', 'unit'], {})).toEqual({ runs: 3, load: 2, build: false, keepGoing: false, vitestArgs: ['--project', 'unit'] });
    expect(parseArgs(['--keep-going', '--runs', '5'], {})).toMatchObject({ runs: 5, keepGoing: true });
    expect(parseArgs([], { PARLEY_SOAK_RUNS: '25', PARLEY_SOAK_LOAD: '0' })).toMatchObject({ runs: 25, load: 0 });
  });

  it('names each failing test with its file and the first line of its error, and a file that failed before its tests', () => {
    const report = {
      testResults: [
        file('test/unit/a.test.ts', 0, 1, { status: 'passed', assertionResults: [{ fullName: 'a works', status: 'passed' }] }),
        file('test/contract/b.test.ts', 0, 1, { status: 'failed', assertionResults: [{ fullName: 'b answers', status: 'failed', failureMessages: ['\nAssertionError: expected 0 to be greater than 0\n    at …'] }] }),
        file('test/e2e/c.test.ts', 0, 1, { status: 'failed', message: 'Hook timed out in 120000ms.\nmore', assertionResults: [{ fullName: 'c shows', status: 'skipped' }] }),
      ],
    };
    expect(failuresOf(report)).toEqual(['test/contract/b.test.ts > b answers: AssertionError: expected 0 to be greater than 0', 'test/e2e/c.test.ts: Hook timed out in 120000ms.']);
  });

  it('finds an e2e file that ran beside a unit or contract file, and nothing when e2e files ran (two at a time) after the rest', () => {
    const after = { testResults: [file('test/unit/a.test.ts', 0, 10), file('test/contract/b.test.ts', 5, 20), file('test/e2e/c.test.ts', 21, 30), file('test/e2e/d.test.ts', 25, 40)] };
    expect(e2eOverlaps(after)).toEqual([]);
    const beside = { testResults: [file('test/unit/a.test.ts', 0, 25), file('test/e2e/c.test.ts', 21, 30), file('test/e2e/d.test.ts', 29, 40)] };
    expect(e2eOverlaps(beside)).toEqual(['test/e2e/c.test.ts ‖ test/unit/a.test.ts']);
  });
});
