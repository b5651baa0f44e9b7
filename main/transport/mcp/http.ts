import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { ServiceError } from '../../../shared/errors.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';
import { problemBody } from '../http/problem.js';
import type { parleyMcpServer } from './tools.js';

interface ServerSide {
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  parleyMcpServer: typeof parleyMcpServer;
}

let serverSide: Promise<ServerSide> | undefined;

/**
 * The MCP SDK's server, its Streamable HTTP transport (Hono's Node adapter under it) and our tools'
 * schemas are loaded at the first POST /mcp, not at every start of served mode (~25 ms of CPU,
 * test/bench/startup.ts). A failed load is tried again by the next request.
 */
function loadServerSide(): Promise<ServerSide> {
  serverSide ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./tools.js')]).then(
    ([http, tools]) => ({ StreamableHTTPServerTransport: http.StreamableHTTPServerTransport, parleyMcpServer: tools.parleyMcpServer }),
    (error: unknown) => {
      serverSide = undefined;
      throw error;
    },
  );
  return serverSide;
}

export interface McpRouteOptions {
  service: Service;
  version: string;
  authenticate: (request: FastifyRequest) => Caller;
  bodyLimit: preParsingAsyncHookHandler;
}

/**
 * Parley as an MCP server at `/mcp` (Streamable HTTP), stateless: every POST carries its Bearer
 * key, is authenticated like any `/api` request (the app's Host check and CORS already ran), and
 * gets a fresh server bound to that caller. No session outlives its request, so one client's key
 * can never act for another, nothing is lost on a restart, and there is nothing to expire. What a
 * session would add — server-initiated messages between requests — none of these tools needs:
 * `ask` streams its progress inside its own POST. So GET (a standalone event stream) and DELETE
 * (ending a session) answer 405, as the specification provides for servers without them.
 */
export function registerMcpRoutes(app: FastifyInstance, options: McpRouteOptions): void {
  app.post('/mcp', { preParsing: options.bodyLimit }, async (request, reply) => {
    const caller = options.authenticate(request);
    const { StreamableHTTPServerTransport, parleyMcpServer } = await loadServerSide();
    const server = parleyMcpServer({
      service: options.service,
      caller,
      version: options.version,
      threadLink: (threadId) => `http://${request.headers.host ?? '127.0.0.1'}/#/chat/${threadId}`,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
    await server.connect(transport);
    // From here the SDK writes the response itself; the headers set so far (API version, CORS) go with it.
    hijack(reply);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const sessionless = async (request: FastifyRequest, reply: FastifyReply) => {
    options.authenticate(request);
    // 405 is what the specification asks of a server without these; the code is the one Fastify's own 405s map to.
    const detail = 'This MCP server is stateless: POST JSON-RPC messages to /mcp (there is no event stream to open and no session to end).';
    const body = problemBody({ ...new ServiceError('not_found', detail).toPayload(), status: 405, title: 'Method not allowed' });
    return reply.status(405).header('Allow', 'POST').type('application/problem+json').send(body);
  };
  app.get('/mcp', sessionless);
  app.delete('/mcp', sessionless);
}

function hijack(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | readonly string[]);
  }
  reply.hijack();
}
