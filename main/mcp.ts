#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServiceError } from '../shared/errors.js';
import { stderrLogger } from './logging/core-logger.js';
import { APP_VERSION } from './app-info.js';
import { bootCore } from './boot.js';
import { defaultDataDir } from './data-dir.js';
import { parleyMcpServer } from './transport/mcp/tools.js';

const USAGE = `Usage: npm run mcp -- --api-key <pk_…> [--data-dir <dir>]
  Parley's datasets as an MCP server over stdio, for clients that launch their servers
  (Claude Desktop, Cursor, …). It acts as the owner of the API key.
  --api-key   an API key (pk_…) from Settings → API keys (env PARLEY_API_KEY)
  --data-dir  the data directory (env PARLEY_DATA_DIR; default: the desktop app's, e.g. ~/.config/parley)`;

/** stdout carries the protocol: everything for people goes to stderr. */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { 'api-key'?: string | undefined; 'data-dir'?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({ options: { 'api-key': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const apiKey = values['api-key'] ?? process.env.PARLEY_API_KEY;
  if (!apiKey) fail(`Give an API key with --api-key or PARLEY_API_KEY.\n${USAGE}`);
  const dataDir = resolve(values['data-dir'] ?? process.env.PARLEY_DATA_DIR ?? defaultDataDir());
  const log = stderrLogger('parley mcp: ');

  // Another Parley (the desktop app, served mode) may be using this data directory: leave its
  // unfinished answers and files alone (SQLite's WAL lets both read and write).
  const core = bootCore({ dataDir, appVersion: APP_VERSION, log, mode: 'served', recover: false });
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
