import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOrCreateKey } from '../../../main/core/platform/storage/key-file.js';
import { tempDir } from '../../support/core.js';

const READ_KEY = fileURLToPath(new URL('../../fixtures/read-key.ts', import.meta.url));

function readKeyInProcess(file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', READ_KEY, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The data directory's keys (credentials.key, secret.key), which instances starting together on one directory all need the same of. */
describe('a key file', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('is made once however many processes start together: each gets the key that won, none a half-written file', async () => {
    const file = join(dir.dir, 'credentials.key');
    const runs = await Promise.all(Array.from({ length: 6 }, () => readKeyInProcess(file)));
    for (const run of runs) expect(run, run.out).toMatchObject({ code: 0 });
    const stored = readFileSync(file).toString('hex');
    expect(runs.map((r) => r.out)).toEqual(Array(6).fill(stored));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Nothing of the losers' attempts is left beside it.
    expect(readdirSync(dir.dir)).toEqual(['credentials.key']);
  });

  it('refuses a file that is not a 32-byte key, saying what to do', () => {
    const file = join(dir.dir, 'secret.key');
    readOrCreateKey(file, () => 'unused');
    expect(readOrCreateKey(file, () => 'unused')).toHaveLength(32);
    const short = join(dir.dir, 'short.key');
    writeFileSync(short, 'abc');
    expect(() => readOrCreateKey(short, (f) => `${f} is damaged: restore it`)).toThrow(/short\.key is damaged: restore it/);
  });
});
