import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_VERSION, RENDERER_DIR } from './app-info.js';
import { bootCore } from './boot.js';
import { issueSignInCode } from './core/platform/auth/sign-in-code.js';
import { defaultDataDir } from './data-dir.js';
import { DatabaseFromFutureError } from './db/connection.js';
import { MigrationChecksumError } from './db/postgres/migrations/index.js';
import { databaseUrlFor, StorageUrlError } from './db/storage.js';
import { createLogger } from './logging/logger.js';
import { pinoCoreLogger } from './logging/core-logger.js';
import { startHttpServer } from './transport/http/server.js';
import { signalServedReady } from './launch/served-ready.js';

const USAGE = `Usage: npm run serve -- [--port <port>] [--data-dir <dir>] [--database-url <url>] [--no-sign-in-link]
  --port             TCP port on 127.0.0.1 (env PARLEY_PORT; default: [server] port of the config, 4317)
  --data-dir         where the database, config and files live (env PARLEY_DATA_DIR; default: the desktop app's, e.g. ~/.config/parley)
  --database-url     postgres://user:password@host:5432/db: run on PostgreSQL, shared by several instances (env
                     PARLEY_DATABASE_URL, or [storage] database_url in the data directory's parley.toml; default: SQLite there)
  --no-sign-in-link  do not print a one-time link that signs a browser in as the owner
Env PARLEY_ADMIN_API_KEY seeds the owner's API key on an empty data directory (no sign-in link is printed then).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`Invalid port ${JSON.stringify(text)}: give a number from 0 to 65535.\n${USAGE}`);
  return port;
}

/** Headless: the same core over HTTP on loopback, with the built renderer at `/`. */
async function main(): Promise<void> {
  let values: { port?: string | undefined; 'data-dir'?: string | undefined; 'database-url'?: string | undefined; 'no-sign-in-link'?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, 'no-sign-in-link': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // Bad flags fail before anything is opened or created.
  const requestedPort = parsePort(values.port) ?? parsePort(process.env.PARLEY_PORT);
  const dataDir = resolve(values['data-dir'] ?? process.env.PARLEY_DATA_DIR ?? defaultDataDir());
  const adminApiKey = process.env.PARLEY_ADMIN_API_KEY || undefined;
  // One logger for the process: <data-dir>/logs/parley.log (rotated) and stderr, secrets redacted.
  const { logger } = createLogger({ dataDir });
  const log = pinoCoreLogger(logger);

  let core;
  try {
    core = bootCore({ dataDir, appVersion: APP_VERSION, adminApiKey, log, mode: 'served', databaseUrl: databaseUrlFor(dataDir, values['database-url']) });
  } catch (error) {
    if (error instanceof DatabaseFromFutureError || error instanceof StorageUrlError || error instanceof MigrationChecksumError || (error instanceof Error && error.message.startsWith('PARLEY_ADMIN_API_KEY'))) fail(error.message);
    throw error;
  }
  if (!RENDERER_DIR) log.warn('the renderer is not built (npm run build): only the API is served.');
  const port = requestedPort ?? core.config().server.port;

  let server;
  try {
    server = await startHttpServer(core, { port, appVersion: APP_VERSION, rendererDir: RENDERER_DIR, logger });
  } catch (error) {
    await core.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`Port ${port} is already in use; choose another with --port (0 picks a free one).`);
    throw error;
  }
  // Which database it runs on, in the same write as the ready line.
  const storage = core.storage === 'postgres' ? `Storage: PostgreSQL (instance ${core.instance})` : `Storage: SQLite in ${dataDir}`;
  let ready = `${storage}\nParley listening on ${server.url}\n`;
  // The owner's way in from a browser. Not on the first start with PARLEY_ADMIN_API_KEY: whoever
  // set it has the owner's key already. The code sits in the URL's fragment, which browsers never
  // send to a server, so it stays out of logs and Referer headers.
  const seededKey = core.owner.created && adminApiKey !== undefined;
  if (!values['no-sign-in-link'] && !seededKey && RENDERER_DIR) {
    const { code } = issueSignInCode(core.repos, core.owner.userId, new Date());
    ready += `Sign in: ${server.url}/#/sign-in/${code}\n`;
  }
  // One write: whoever waits for the first line finds the link with it.
  process.stdout.write(ready);
  signalServedReady();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: shutting down`);
    // The shutdown rule: new requests get 503 while running answers are stored, then the
    // database closes; the server closes after (its streams have ended by then).
    await core.close();
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Parley could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
