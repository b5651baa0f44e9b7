import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../../shared/config.js';

/*
 * The MCP servers of `[[mcp.servers]]` as their admin pages and agents' tools use them;
 * conversation/mcp/ (clients.ts, connection.ts) implements these.
 */

export type McpServerState = 'disabled' | 'idle' | 'starting' | 'ready' | 'failed' | 'stopped';

/** One declared server as the admin sees it. */
export interface McpServerSnapshot {
  name: string;
  state: McpServerState;
  tools: Tool[];
  /** Tools the server has that the allow-list leaves out. */
  hidden_tools: string[];
  last_error: { message: string; at: string } | null;
  started_at: string | null;
  /** Restarts after failures since Parley started (or the server was declared). */
  restarts: number;
  next_retry_at: string | null;
}

/** One declared MCP server, started on first need (or by an admin). */
export interface McpServerPort {
  readonly config: McpServerConfig;
  snapshot(): McpServerSnapshot;
  /** Tools an agent may be offered: the server's, narrowed by the allow-list. Empty unless it is ready. */
  offered(): Tool[];
  /** Starts (or restarts) now, whatever the back-off says: an admin asked to connect. */
  startNow(): Promise<void>;
  /** Calls one tool; a failure is answered as `{ ok: false, message }`, never thrown. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ ok: true; result: CallToolResult } | { ok: false; message: string }>;
}

export interface McpClientsPort {
  /** Every declared server, in the order of the configuration. */
  list(): McpServerSnapshot[];
  get(name: string): McpServerPort | undefined;
  /** The enabled servers that offer tools, each started if it has not been yet; failures are left out. */
  ready(): Promise<McpServerPort[]>;
}
