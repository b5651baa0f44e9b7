/**
 * Issue 27, item 10: the stdio MCP entry takes its key from PARLEY_API_KEY or a key file; a key
 * given as `--api-key` still works but is cleared from the process title (what every local user
 * reads in /proc/<pid>/cmdline) and warned about. Spawned as an MCP client would launch it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootTestCore, TEST_ADMIN_KEY } from '../support/core.js';
import { databaseFor } from '../support/test-storage.js';

const MCP_SOURCE = fileURLToPath(new URL('../../main/mcp.ts', import.meta.url));
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });

let core: ReturnType<typeof bootTestCore>;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  core = bootTestCore();
});
afterAll(async () => {
  for (const child of children) child.kill();
  await core.remove();
});

interface Launched {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  /** Resolves with the answer to `initialize`: the server is up and authenticated. */
  initialized: Promise<unknown>;
  exited: Promise<number | null>;
}

function launch(args: string[], env: Record<string, string> = {}): Launched {
  const { PARLEY_API_KEY: _unset, ...parentEnv } = process.env;
  const database = databaseFor(core.dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', MCP_SOURCE, '--data-dir', core.dataDir, ...args], { env: { ...parentEnv, ...(database ? { PARLEY_DATABASE_URL: database } : {}), ...env } });
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const initialized = new Promise<unknown>((resolve) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => l.includes('"id":1'));
      if (line) resolve(JSON.parse(line));
    });
  });
  child.stdin.write(`${INITIALIZE}\n`);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, initialized, exited };
}

describe('the stdio MCP entry and its key', () => {
  it('--api-key still works, but the key leaves the process title and a warning says why', async () => {
    const run = launch(['--api-key', TEST_ADMIN_KEY]);
    expect(await run.initialized).toMatchObject({ result: { serverInfo: expect.any(Object) } });
    const cmdline = readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(TEST_ADMIN_KEY);
    expect(cmdline).toContain('--api-key');
    expect(run.stderr()).toMatch(/--api-key puts the key on the command line.*Use PARLEY_API_KEY or --api-key-file/s);
    run.child.stdin.end();
    expect(await run.exited).toBe(0);
  }, 60_000);

  it('the key can come from a file, and nothing is warned about', async () => {
    const file = join(core.dataDir, 'mcp-key');
    writeFileSync(file, `${TEST_ADMIN_KEY}\n`, { mode: 0o600 });
    const run = launch(['--api-key-file', file]);
    expect(await run.initialized).toMatchObject({ result: { serverInfo: expect.any(Object) } });
    expect(readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8')).not.toContain(TEST_ADMIN_KEY);
    expect(run.stderr()).not.toMatch(/Warning/);
    run.child.stdin.end();
    expect(await run.exited).toBe(0);
  }, 60_000);

  it('with no key it exits 2 and names the two safe ways to give one', async () => {
    const run = launch([]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/Give an API key in PARLEY_API_KEY or with --api-key-file <path>/);
  }, 60_000);
});
