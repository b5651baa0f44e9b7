#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServiceError } from '../shared/errors.js';
import { stderrLogger } from './logging/core-logger.js';
import { APP_VERSION } from './app-info.js';
import { bootCore } from './boot.js';
import { defaultDataDir } from './data-dir.js';
import { databaseUrlFor, StorageUrlError } from './db/storage.js';
import { parleyMcpServer } from './transport/mcp/tools.js';

const USAGE = `Usage: PARLEY_API_KEY=<pk_…> npm run mcp -- [--data-dir <dir>]
       npm run mcp -- --api-key-file <path> [--data-dir <dir>]
  Parley's datasets as an MCP server over stdio, for clients that launch their servers
  (Claude Desktop, Cursor, …). It acts as the owner of the API key (pk_…, from Settings → API keys).
  PARLEY_API_KEY  the API key (env: not visible to other users, unlike a command line)
  --api-key-file  a file holding the API key (make it readable by you only)
  --data-dir      the data directory (env PARLEY_DATA_DIR; default: the desktop app's, e.g. ~/.config/parley)`;

const ARGUMENT_KEY_WARNING =
  'Warning: --api-key puts the key on the command line, where every local user can read it (ps, /proc/<pid>/cmdline). ' +
  'It was cleared from this process\'s title, but not from whatever started it. Use PARLEY_API_KEY or --api-key-file instead.';

/** stdout carries the protocol: everything for people goes to stderr. */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** The command line as shown by `ps`, the key's value replaced. */
function titleWithoutKey(argv: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--api-key') {
      shown.push(arg, '<hidden>');
      i++;
    } else shown.push(arg.startsWith('--api-key=') ? '--api-key=<hidden>' : arg);
  }
  return shown.join(' ');
}

/** The key from the environment, the key file, or (warned about) the command line. */
function keyOf(values: { 'api-key'?: string | undefined; 'api-key-file'?: string | undefined }): string | undefined {
  const file = values['api-key-file'];
  if (file !== undefined) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      fail(`Could not read the API key file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return values['api-key'] ?? (process.env.PARLEY_API_KEY || undefined);
}

async function main(): Promise<void> {
  let values: { 'api-key'?: string | undefined; 'api-key-file'?: string | undefined; 'data-dir'?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { 'api-key': { type: 'string' }, 'api-key-file': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  // Still accepted (older client configurations pass it), but out of the title at once, and said so.
  if (values['api-key'] !== undefined) {
    process.title = titleWithoutKey(process.argv);
    process.stderr.write(`${ARGUMENT_KEY_WARNING}\n`);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const apiKey = keyOf(values);
  if (!apiKey) fail(`Give an API key in PARLEY_API_KEY or with --api-key-file <path>.\n${USAGE}`);
  const dataDir = resolve(values['data-dir'] ?? process.env.PARLEY_DATA_DIR ?? defaultDataDir());
  const log = stderrLogger('parley mcp: ');

  // Another Parley (the desktop app, served mode) may be using this data directory: leave its
  // unfinished answers and files alone (SQLite's WAL lets both read and write).
  // The same database as the Parley it joins: PARLEY_DATABASE_URL or the data directory's [storage] database_url.
  let core;
  try {
    core = bootCore({ dataDir, appVersion: APP_VERSION, log, mode: 'served', recover: false, databaseUrl: databaseUrlFor(dataDir, undefined) });
  } catch (error) {
    // A bad or unreachable database URL: one line, its password left out, as served mode says it.
    if (error instanceof StorageUrlError) fail(error.message);
    throw error;
  }
  let caller;
  try {
    caller = core.service.authenticate(apiKey);
  } catch (error) {
    await core.close();
    fail(`The API key was refused: ${error instanceof ServiceError ? error.message : String(error)}`);
  }
  const server = parleyMcpServer({ service: core.service, caller, version: APP_VERSION, threadLink: () => null });
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void server
      .close()
      .then(() => core.close())
      .finally(() => process.exit(0));
  };
  transport.onclose = shutdown;
  // The client ends the server by closing stdin (or with a signal).
  process.stdin.once('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await server.connect(transport);
  log.info(`serving ${dataDir} over stdio as ${caller.user.email}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Parley's MCP server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
