import { z } from 'zod';
import { Timestamp, list } from './common.js';
import { defineOperation } from './define.js';
import { PassageLocation } from './search.js';

/** A tool of an MCP server, as agents are offered it. */
export const McpTool = z.object({
  /** The server's own name for it. */
  name: z.string(),
  /** What agents call it: `mcp__<server>__<tool>`. */
  qualified_name: z.string(),
  description: z.string().nullable(),
});

/** One `[[mcp.servers]]` entry of the configuration and how it is doing. */
export const McpServer = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /**
   * What runs: the program (stdio; its arguments and environment are not shown, they may hold
   * secrets) or the endpoint's origin and path (http; no query, no credentials).
   */
  target: z.string(),
  enabled: z.boolean(),
  /**
   * `disabled` (enabled = false), `idle` (not needed yet: servers start when an agent first needs
   * them), `starting`, `ready`, `failed` (waiting for its next restart, see `next_retry_at`), `stopped`.
   */
  state: z.enum(['disabled', 'idle', 'starting', 'ready', 'failed', 'stopped']),
  /** The tools agents are offered (the allow-list applied); listed once the server is ready. */
  tools: z.array(McpTool),
  /** Tools the server has that the `tools` allow-list leaves out. */
  hidden_tools: z.array(z.string()),
  /** The latest failure: could not start, stopped, timed out, a call that broke off. */
  last_error: z.object({ message: z.string(), at: Timestamp }).nullable(),
  started_at: Timestamp.nullable(),
  restarts: z.number().int(),
  next_retry_at: Timestamp.nullable(),
  timeout_seconds: z.number().int(),
});
export type McpServer = z.infer<typeof McpServer>;

const ServerName = z.string().min(1).max(32).regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be the name of a server in [[mcp.servers]]');

export const listMcpServers = defineOperation({
  name: 'mcp.servers.list',
  summary:
    'The MCP servers declared in the configuration (`[[mcp.servers]]`), whose tools agentic answers may call: each one’s state, tools and last error. ' +
    'Servers start when an agent first needs them and restart with back-off after a failure.',
  tag: 'MCP',
  access: 'admin',
  http: { method: 'GET', path: '/mcp/servers', status: 200 },
  input: z.object({}),
  output: list(McpServer),
});

export const connectMcpServer = defineOperation({
  name: 'mcp.servers.connect',
  summary:
    'Starts a declared MCP server now (or restarts it, skipping any back-off) and answers its state once it is ready or has failed: ' +
    'how an admin checks a server just declared. A disabled server is a conflict.',
  tag: 'MCP',
  access: 'admin',
  http: { method: 'POST', path: '/mcp/servers/{name}/connect', status: 200 },
  input: z.object({ name: ServerName }),
  output: McpServer,
});

/** A passage of a dataset with the passages around it in its file. */
export const PassageWithContext = z.object({
  chunk_id: z.number().int(),
  dataset_id: z.string(),
  artifact_id: z.string(),
  artifact_key: z.string(),
  location: PassageLocation,
  /** The passage itself. */
  text: z.string(),
  /** It and its neighbours, in file order (`radius` on each side). */
  context: z.array(z.object({ chunk_id: z.number().int(), text: z.string(), is_passage: z.boolean() })),
});

export const readPassage = defineOperation({
  name: 'passages.get',
  summary:
    'A passage found by `POST /search` (its `chunk_id`) with the passages just before and after it in its file: what the MCP tool `read_passage` and the agents’ tool of that name read. ' +
    'A passage of a dataset the caller may not read is not found.',
  tag: 'Search',
  access: 'user',
  http: { method: 'GET', path: '/passages/{chunk_id}', status: 200 },
  input: z.object({ chunk_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER), radius: z.coerce.number().int().min(0).max(5).default(1) }),
  output: PassageWithContext,
});
