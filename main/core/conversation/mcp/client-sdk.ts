import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StdioServerProcess, serverEnvironment } from './stdio-transport.js';

/** What connecting to a declared MCP server needs of the SDK (and our stdio transport over it). */
export interface ClientSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StdioServerProcess: typeof StdioServerProcess;
  serverEnvironment: typeof serverEnvironment;
}

let loading: Promise<ClientSdk> | undefined;

/**
 * Loaded at the first connection, not at every start: the SDK's protocol schemas (zod) cost
 * ~25–30 ms of CPU at start-up (test/bench/startup.ts), and most installations declare no server.
 * A failed load is tried again by the next connection.
 */
export function loadClientSdk(): Promise<ClientSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('./stdio-transport.js'),
  ]).then(
    ([client, http, stdio]) => ({
      Client: client.Client,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      StdioServerProcess: stdio.StdioServerProcess,
      serverEnvironment: stdio.serverEnvironment,
    }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
