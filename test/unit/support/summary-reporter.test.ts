import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const VITEST = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/reporter/${name}`, import.meta.url));

function runFixtures(config = fixture('vitest.config.ts'), extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS'));
  const child = spawn(process.execPath, [VITEST, 'run', '--config', config], { cwd: ROOT, env: { ...env, CI: '1', NO_COLOR: '1', ...extraEnv } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  // Vitest writes failures to stderr; both are read as one transcript.
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

it('counts a file that fails in beforeAll, and one that fails on import, as failed, and exits non-zero', async () => {
  const { code, stdout } = await runFixtures();
  // One passing test; the two tests of the beforeAll file; the import failure as one file.
  expect(stdout).toMatch(/^tests: 1 passed, 3 failed$/m);
  expect(code).not.toBe(0);
}, 60_000);

it("fails an e2e file without a browser, with the discovery's reason, and counts it as failed", async () => {
  const { code, stdout } = await runFixtures(fixture('no-browser.config.ts'), { PARLEY_CHROMIUM: '/nonexistent/chromium' });
  expect(stdout).toContain('Error: PARLEY_CHROMIUM is set to /nonexistent/chromium, which is not an executable file.');
  expect(stdout).toMatch(/^tests: 0 passed, 1 failed$/m);
  expect(code).not.toBe(0);
}, 60_000);
