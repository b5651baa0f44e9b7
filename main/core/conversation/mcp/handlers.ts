import { ServiceError } from '../../../../shared/errors.js';
import type { McpServer } from '../../../../shared/operations/mcp.js';
import type { McpServerConfig } from '../../../../shared/config.js';
import type { ContextSlice } from '../../platform/context.js';
import type { McpClientsPort } from '../../platform/ports/mcp.js';
import type { McpServerSnapshot } from './connection.js';
import { qualifiedName } from './answer-tools.js';
import type { HandlersFor, InputOf } from '../../platform/operation-handlers.js';

/** What runs, without what may be secret: the program (not its arguments), or the URL without query and credentials. */
export function targetOf(config: McpServerConfig): string {
  if (config.command !== undefined) return config.command;
  try {
    const url = new URL(config.url ?? '');
    return `${url.origin}${url.pathname}`;
  } catch {
    return '';
  }
}

function view(config: McpServerConfig, snapshot: McpServerSnapshot): McpServer {
  return {
    name: snapshot.name,
    transport: config.command !== undefined ? 'stdio' : 'http',
    target: targetOf(config),
    enabled: config.enabled,
    state: snapshot.state,
    tools: snapshot.tools.map((t) => ({ name: t.name, qualified_name: qualifiedName(snapshot.name, t.name), description: t.description ?? null })),
    hidden_tools: snapshot.hidden_tools,
    last_error: snapshot.last_error,
    started_at: snapshot.started_at,
    restarts: snapshot.restarts,
    next_retry_at: snapshot.next_retry_at,
    timeout_seconds: config.timeout_seconds,
  };
}

function clients(ctx: ContextSlice<never, 'mcp'>): McpClientsPort {
  const mcp = ctx.runtime.mcp;
  if (!mcp) throw new ServiceError('unavailable', 'MCP servers cannot run in this process.');
  return mcp;
}

/** `GET /mcp/servers`: every declared server with its state, tools and last error. */
export function listMcpServers(ctx: ContextSlice<never, 'mcp'>): { data: McpServer[] } {
  const mcp = clients(ctx);
  return { data: mcp.list().flatMap((snapshot) => {
    const connection = mcp.get(snapshot.name);
    return connection ? [view(connection.config, snapshot)] : [];
  }) };
}

/** `POST /mcp/servers/{name}/connect`: start (or restart) it now and answer how that went. */
export async function connectMcpServer(ctx: ContextSlice<never, 'mcp'>, input: InputOf<'mcp.servers.connect'>): Promise<McpServer> {
  const connection = clients(ctx).get(input.name);
  if (!connection) throw new ServiceError('not_found', `No MCP server called ${JSON.stringify(input.name)} is declared in [[mcp.servers]].`);
  if (!connection.config.enabled) throw new ServiceError('conflict', `The MCP server ${input.name} is disabled (enabled = false in its [[mcp.servers]] entry).`);
  await connection.startNow();
  return view(connection.config, connection.snapshot());
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const mcpHandlers: HandlersFor<'mcp'> = {
  'mcp.servers.list': listMcpServers,
  'mcp.servers.connect': connectMcpServer,
};
