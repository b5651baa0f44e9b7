import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/core.js';
import { SERVE_ENTRY } from '../../support/served.js';

/** Served mode as users start it, on a database server that is not there (issue 33). */
describe('served mode with an unreachable PostgreSQL', () => {
  it('exits non-zero with one line naming the server, never its password', async () => {
    const dir = tempDir('parley-unreachable-');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env.PARLEY_DATABASE_URL;
      const child = spawn(process.execPath, [SERVE_ENTRY, '--port', '0', '--data-dir', dir.dir, '--database-url', 'postgres://user:secret@127.0.0.1:1/x'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
      expect(code, stderr).not.toBe(0);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^PostgreSQL at postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/x could not be reached: /)]);
      expect(stderr).not.toContain('secret');
    } finally {
      dir.remove();
    }
  });
});
