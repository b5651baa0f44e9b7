/**
 * A throwaway PostgreSQL for the tests: the pinned PostgreSQL 16 with pgvector that `npm run
 * fetch-test-models` unpacks into the cache (scripts/models/test-postgres.ts), initialised into a
 * fresh temporary folder and listening on a free port at 127.0.0.1 only, with trust
 * authentication (nothing but this machine can reach it, and only for the run). Tuned for tests,
 * not for durability: no fsync, no synchronous commit, no full-page writes.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, copyFile, link, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cachedPostgresDir, postgresBinDir } from '../../scripts/models/test-postgres.js';

const run = promisify(execFile);

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, on the `postgres` database. */
  url: string;
  /** The temporary folder holding the data directory and the sockets (and, as root, the programs). */
  dir: string;
  /** A fast shutdown (open sessions are ended), then the folder is removed. Safe to call twice. */
  stop(): Promise<void>;
}

interface Account {
  uid: number;
  gid: number;
}

/** How much of the server's log is kept for an error message. */
const LOG_TAIL = 16 * 1024;

/** Settings for a server that lives for one test run. */
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '200',
  shared_buffers: '16MB',
};

/**
 * PostgreSQL refuses to run as root, so a root test run (CI on a fresh machine) runs it as
 * `nobody`. Its account is read from /etc/passwd rather than assumed.
 */
function unprivilegedAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // no passwd file: the conventional ids below
  }
  const line = passwd.split('\n').find((entry) => entry.startsWith('nobody:'));
  const fields = line?.split(':') ?? [];
  return { uid: Number(fields[2] ?? 65534), gid: Number(fields[3] ?? 65534) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port could be had for the test PostgreSQL');
  return address.port;
}

/**
 * Recreates the folder `from` at `to` with hard links (~0.05 s), or copies where a link cannot be
 * made (another file system: ~0.3 s for the 30 MB). Nothing writes to the programs, so the cache
 * is never changed through a link.
 */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) await linkTree(source, target);
    else await link(source, target).catch(() => copyFile(source, target));
  }
}

/** The environment the server's programs see: none of the caller's PG* variables, a C locale. */
function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' };
}

interface Started {
  child: ChildProcess;
  /** The log so far (its last LOG_TAIL characters). */
  log: () => string;
}

/** Starts `postgres` and resolves once its log says it accepts connections; rejects with the log if it exits first. */
function startPostmaster(bin: string, args: string[], account: Account | undefined): Promise<Started> {
  const child = spawn(join(bin, 'postgres'), args, { env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...account });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_TAIL);
  };
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      reject(new PostmasterExited(`the test PostgreSQL exited at start (${signal ?? `code ${code}`}):\n${log}`, log));
    };
    child.once('error', (error) => reject(new Error(`the test PostgreSQL could not be started: ${error.message}`)));
    child.once('exit', onExit);
    child.stdout?.on('data', append);
    child.stderr?.on('data', (chunk: Buffer) => {
      append(chunk);
      if (log.includes('database system is ready to accept connections')) {
        child.off('exit', onExit);
        resolve({ child, log: () => log });
      }
    });
  });
}

class PostmasterExited extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(message);
  }
}

/**
 * Starts a fresh PostgreSQL (with pgvector available, not created: `CREATE EXTENSION vector` is
 * the caller's). Its data lives in a new temporary folder that `stop()` removes.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const installed = cachedPostgresDir();
  if (!existsSync(join(postgresBinDir(installed), 'postgres'))) {
    throw new Error(`The test PostgreSQL is not at ${installed}: run \`npm run fetch-test-models\` first (or set PARLEY_TEST_POSTGRES_URL).`);
  }
  const account = unprivilegedAccount();
  const root = await mkdtemp(join(tmpdir(), 'parley-pg-'));
  try {
    let bin = postgresBinDir(installed);
    if (account) {
      await chown(root, account.uid, account.gid);
      // The cache is under root's home, which `nobody` cannot enter: it runs the install from here.
      const copy = join(root, 'install');
      await linkTree(installed, copy);
      bin = postgresBinDir(copy);
    }
    const data = join(root, 'data');
    const sockets = join(root, 'sockets');
    await mkdir(sockets);
    if (account) await chown(sockets, account.uid, account.gid);
    // trust: initdb writes pg_hba.conf lines for the Unix socket and 127.0.0.1/::1 only.
    await run(join(bin, 'initdb'), ['-D', data, '-E', 'UTF8', '--locale=C', '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions'], {
      env: serverEnv(),
      ...account,
    }).catch((error: unknown) => {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`initdb failed for the test PostgreSQL:\n${stdout}${stderr}`);
    });
    const settings = Object.entries(SETTINGS).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
    // The port is free when asked for but may be taken before postgres binds it: then another.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      try {
        const started = await startPostmaster(bin, ['-D', data, '-p', String(port), '-k', sockets, ...settings], account);
        return served(started, port, root);
      } catch (error) {
        if (!(error instanceof PostmasterExited && /could not bind|Address already in use/.test(error.log) && attempt < 5)) throw error;
      }
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

function served({ child, log }: Started, port: number, root: string): TestPostgres {
  // Should the process end without stop() (a crash, Ctrl-C), the server must not outlive it.
  const orphaned = () => child.kill('SIGQUIT');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // A forgotten stop() must not hold the test process open either.
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  let stopping: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir: root,
    stop: () => {
      stopping ??= (async () => {
        process.off('exit', orphaned);
        // Held again, or a process with nothing else to do would end before postgres has.
        child.ref();
        // SIGINT is PostgreSQL's fast shutdown: sessions are ended rather than waited for.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
        await exited;
        await rm(root, { recursive: true, force: true });
        if (child.exitCode !== 0 && child.signalCode === null) throw new Error(`the test PostgreSQL stopped with code ${child.exitCode}:\n${log()}`);
      })();
      return stopping;
    },
  };
}
