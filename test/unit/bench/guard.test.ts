import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guarded } from '../../bench/guard.js';
import { tempDir } from '../../support/core.js';

afterEach(() => vi.restoreAllMocks());

describe('guarded benches', () => {
  it('pass a bench’s result through, and turn a failure into a line and undefined', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    expect(await guarded('Fine', async () => [1, 2])).toEqual([1, 2]);
    expect(await guarded('Broken', () => Promise.reject(new Error('worker died')))).toBeUndefined();
    expect(out).toContain('Broken: failed — worker died');
  });

  it('let the run go on when a bench’s promise can never settle (Node would otherwise exit with 13)', () => {
    const { dir, remove } = tempDir();
    try {
      const guard = fileURLToPath(new URL('../../bench/guard.ts', import.meta.url));
      const script = join(dir, 'stall.mts');
      writeFileSync(
        script,
        `import { guarded } from ${JSON.stringify(guard)};\n` +
          `const r = await guarded('Stuck', () => new Promise<number>(() => {}));\n` +
          `process.stdout.write('after ' + String(r) + '\\n');\n`,
      );
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Stuck: did not finish');
      expect(run.stdout).toContain('after undefined');
    } finally {
      remove();
    }
  });
});
