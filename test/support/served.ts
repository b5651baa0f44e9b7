import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseFor, testStorage } from './test-storage.js';

/** The built headless entry (`npm run build`): served mode exactly as users run it. */
export const SERVE_ENTRY = fileURLToPath(new URL('../../dist/main/serve.js', import.meta.url));

const READY = /^Parley listening on (http:\/\/127\.0\.0\.1:\d+)\s*$/m;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ServedOptions {
  /**
   * The owner's key, seeded through PARLEY_ADMIN_API_KEY; a fresh random `pk_` key by default;
   * `null` starts without one, as a new user does (`apiKey` is then empty).
   */
  adminApiKey?: string | null;
  /** Extra command-line arguments (`--no-sign-in-link`). */
  args?: string[];
  /** An existing data directory, kept after `stop()`; by default a fresh temporary one, removed after. */
  dataDir?: string;
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** How long to wait for the "listening" line. */
  startTimeoutMs?: number;
}

export interface Served {
  /** `http://127.0.0.1:<port>`, without a trailing slash; the API is under `/api`. */
  url: string;
  /** The owner's (super admin's) API key. */
  apiKey: string;
  dataDir: string;
  /** Calls the API as `token` (the owner by default; `null` for none), JSON in and out. */
  api(path: string, init?: { method?: string; body?: unknown; token?: string | null }): Promise<Response>;
  /** The `Sign in: …` link served mode printed with the ready line, if it printed one. */
  signInLink: string | null;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s); answers how it exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGKILL: a crash) and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function randomApiKey(): string {
  let key = 'pk_';
  for (let i = 0; i < 32; i++) key += BASE62[randomInt(62)];
  return key;
}

const running = new Set<ChildProcess>();
// A test run that dies half-way must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `node dist/main/serve.js --port 0 --data-dir <dir>` and resolves once it prints
 * `Parley listening on http://127.0.0.1:<port>`.
 */
export async function startServed(options: ServedOptions = {}): Promise<Served> {
  if (!existsSync(SERVE_ENTRY)) throw new Error(`${SERVE_ENTRY} does not exist: run \`npm run build\` first.`);
  const apiKey = options.adminApiKey === null ? '' : (options.adminApiKey ?? randomApiKey());
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'parley-served-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PARLEY_ADMIN_API_KEY: apiKey };
  if (!apiKey) delete env.PARLEY_ADMIN_API_KEY;
  if (testStorage() === 'postgres' && !env.PARLEY_DATABASE_URL) env.PARLEY_DATABASE_URL = databaseFor(dataDir);
  delete env.PARLEY_PORT;
  delete env.PARLEY_DATA_DIR;

  const child = spawn(process.execPath, [SERVE_ENTRY, '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });

  const cleanUp = () => {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };

  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`served mode did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${log}`)), options.startTimeoutMs ?? 60_000);
      const onData = () => {
        const match = READY.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onData);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`served mode exited (${signal ?? `code ${code}`}) before it was ready:\n${log}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    cleanUp();
    throw error;
  }

  return {
    url,
    apiKey,
    pid: child.pid ?? -1,
    get signInLink() {
      return /^Sign in: (\S+)\s*$/m.exec(log)?.[1] ?? null;
    },
    dataDir,
    output: () => log,
    api(path, init = {}) {
      const headers: Record<string, string> = {};
      const token = init.token === undefined ? apiKey : init.token;
      if (token) headers.authorization = `Bearer ${token}`;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${url}/api${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
      });
    },
    async kill(signal) {
      child.kill(signal);
      const result = await exited;
      cleanUp();
      return result;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const result = await exited;
        clearTimeout(killer);
        cleanUp();
        return result;
      }
      const result = await exited;
      cleanUp();
      return result;
    },
  };
}
