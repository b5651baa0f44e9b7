import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, logsDir } from '../../../main/logging/logger.js';
import { redactSecrets } from '../../../main/logging/redact.js';
import { RotatingFile } from '../../../main/logging/rotating-file.js';
import { tempDir } from '../../support/core.js';

const dirs: { remove: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
  vi.restoreAllMocks();
});

describe('the process logger', () => {
  it('writes JSON lines to <data-dir>/logs/parley.log and stderr, secrets redacted everywhere', () => {
    const dir = tempDir();
    dirs.push(dir);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { logger, file } = createLogger({ dataDir: dir.dir });
    const error = new Error('upstream said: invalid key sk-abcdef1234567890 for https://bob:hunter2@api.example.com/v1?api_key=zzz999');
    logger.error({ err: error, headers: { authorization: 'Bearer pk_SecretSecret123' }, token: 'ut_AAAAAAAAAAAA' }, 'unexpected error with ut_TrialToken12345');
    file.close();
    const text = readFileSync(join(logsDir(dir.dir), 'parley.log'), 'utf8');
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    for (const out of [text, printed]) {
      for (const secret of ['sk-abcdef1234567890', 'hunter2', 'zzz999', 'pk_SecretSecret123', 'ut_TrialToken12345']) expect(out).not.toContain(secret);
    }
    const entry = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { level: number; msg: string; err: { message: string } };
    expect(entry.level).toBe(50);
    expect(entry.msg).toBe('unexpected error with ut_[redacted]');
    expect(entry.err.message).toContain('sk-[redacted]');
    expect(printed).toMatch(/^error: unexpected error/m);
  });

  it('rotates by size, keeping a bounded number of files', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = new RotatingFile(dir.dir, 'x.log', 100, 2);
    for (let i = 0; i < 10; i++) file.write(`${'line'.repeat(10)} ${i}\n`);
    file.close();
    expect(existsSync(join(dir.dir, 'x.log.1'))).toBe(true);
    expect(existsSync(join(dir.dir, 'x.log.2'))).toBe(true);
    expect(existsSync(join(dir.dir, 'x.log.3'))).toBe(false);
  });

  it('redacts bearer tokens, keys and URL credentials in any text', () => {
    expect(redactSecrets('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('postgres://u:p@host/db')).toBe('postgres://[redacted]@host/db');
    expect(redactSecrets('key pk_0123456789abcdef here')).toBe('key pk_[redacted] here');
  });
});
