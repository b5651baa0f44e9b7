import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

/** Whether a suite or module around the test failed on its own (a beforeAll that threw, say). */
function parentFailed(test: TestCase): boolean {
  for (let parent: TestSuite | TestModule = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
  }
}

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, which CI reads to tell
 * a run that tested something from one that ran no test. A file that fails before its tests run
 * (a beforeAll that throws, an import or syntax error) counts as failed: its tests count as
 * failed, and a file whose tests were never even collected counts as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || parentFailed(test)) failedHere++;
        else skipped++;
      }
      if (failedHere === 0 && (module.errors().length > 0 || module.state() === 'failed')) failedHere = 1;
      failed += failedHere;
    }
    const errors = unhandledErrors.length ? `, ${unhandledErrors.length} unhandled error${unhandledErrors.length === 1 ? '' : 's'}` : '';
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${errors}\n`);
  }
}
