import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../../shared/config.js';
import { loadClientSdk, type ClientSdk } from './client-sdk.js';
import type { Timers } from './timers.js';
import type { Logger } from '../../platform/logger.js';
import { backoffMs } from '../../platform/backoff.js';
import type { McpServerPort, McpServerSnapshot, McpServerState } from '../../platform/ports/mcp.js';

export type { McpServerSnapshot, McpServerState };

export class McpTimeout extends Error {
  constructor(what: string, seconds: number) {
    super(`${what} took longer than ${seconds} s (timeout_seconds).`);
    this.name = 'McpTimeout';
  }
}

export interface ConnectionDeps {
  timers: Timers;
  /** What Parley calls itself in the MCP handshake. */
  clientInfo: { name: string; version: string };
  log: Logger;
}

/**
 * One declared MCP server: started on first need (or by an admin), its tools listed, its calls
 * bounded by `timeout_seconds`. A failure (it cannot start, it exits, it breaks the protocol) is
 * kept as `last_error` and a restart is scheduled with exponential back-off; a successful call
 * resets the back-off. `stop()` ends it for good (removed from the configuration, or disabled).
 */
export class McpServerConnection implements McpServerPort {
  private state: McpServerState;
  private tools: Tool[] = [];
  private hidden: string[] = [];
  private lastError: { message: string; at: string } | null = null;
  private startedAt: string | null = null;
  private restarts = 0;
  private failures = 0;
  private retryAt: number | null = null;
  private retryTimer: unknown = null;
  private client: Client | null = null;
  /** The SDK, once the first connection has loaded it. */
  private sdk: ClientSdk | null = null;
  private transport: Transport | null = null;
  private starting: Promise<void> | null = null;
  /** Bumped whenever the connection is replaced, so late events of an old one are ignored. */
  private generation = 0;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.state = config.enabled ? 'idle' : 'disabled';
  }

  private get timeoutMs(): number {
    return this.config.timeout_seconds * 1000;
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  snapshot(): McpServerSnapshot {
    return {
      name: this.config.name,
      state: this.state,
      tools: this.state === 'ready' ? this.tools : [],
      hidden_tools: this.state === 'ready' ? this.hidden : [],
      last_error: this.lastError,
      started_at: this.state === 'ready' ? this.startedAt : null,
      restarts: this.restarts,
      next_retry_at: this.state === 'failed' && this.retryAt !== null ? this.iso(this.retryAt) : null,
    };
  }

  /** Tools an agent may be offered: the server's, narrowed by the allow-list. Empty unless it is ready. */
  offered(): Tool[] {
    return this.state === 'ready' ? this.tools : [];
  }

  /**
   * Starts the server if nobody has yet (lazily), and waits for it to be ready or to fail. A server
   * in back-off after a failure is not hurried: it restarts when its time comes.
   */
  async ensureStarted(): Promise<void> {
    if (this.state === 'idle') return this.start();
    if (this.state === 'starting' && this.starting) return this.starting;
  }

  /** Starts (or restarts) now, whatever the back-off says: an admin asked to connect. */
  async startNow(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'stopped') return;
    if (this.state === 'starting' && this.starting) return this.starting;
    await this.disconnect();
    return this.start();
  }

  private start(): Promise<void> {
    this.clearRetry();
    this.state = 'starting';
    const generation = ++this.generation;
    this.starting = this.connect(generation).finally(() => {
      if (this.generation === generation) this.starting = null;
    });
    return this.starting;
  }

  private transportFor(sdk: ClientSdk): Transport {
    const c = this.config;
    if (c.command !== undefined) return new sdk.StdioServerProcess({ command: c.command, args: c.args, env: sdk.serverEnvironment(c.env) }, this.deps.timers);
    return new sdk.StreamableHTTPClientTransport(new URL(c.url ?? ''), { requestInit: { headers: c.headers } });
  }

  private async connect(generation: number): Promise<void> {
    let sdk: ClientSdk;
    try {
      sdk = await loadClientSdk();
    } catch (error) {
      if (this.generation === generation) this.fail(generation, describe(error));
      return;
    }
    // Stopped or restarted while the SDK loaded: that newer call owns the connection.
    if (this.generation !== generation) return;
    this.sdk = sdk;
    const transport = this.transportFor(sdk);
    const client = new sdk.Client(this.deps.clientInfo, { capabilities: {} });
    this.transport = transport;
    this.client = client;
    client.onclose = () => {
      // While starting, the failed start itself says why (a refused key, a program that exited).
      if (this.generation !== generation || this.state !== 'ready') return;
      this.fail(generation, `The server stopped.${this.stderrNote()}`);
    };
    try {
      await this.bounded('Starting the server', (signal) => client.connect(transport, { signal, timeout: this.timeoutMs * 2 }));
      const listed = await this.bounded('Listing its tools', (signal) => listAllTools(client, signal, this.timeoutMs * 2));
      if (this.generation !== generation) return;
      const allow = this.config.tools;
      this.tools = allow ? listed.filter((t) => allow.includes(t.name)) : listed;
      this.hidden = allow ? listed.filter((t) => !allow.includes(t.name)).map((t) => t.name) : [];
      const missing = allow?.filter((name) => !listed.some((t) => t.name === name)) ?? [];
      this.state = 'ready';
      this.startedAt = this.iso(this.deps.timers.now());
      // An allow-list naming tools the server lacks is a typo worth telling the admin, not a failure.
      if (missing.length > 0) this.lastError = { message: `The allow-list names tools this server does not have: ${missing.join(', ')}.`, at: this.startedAt };
    } catch (error) {
      if (this.generation !== generation) return;
      this.fail(generation, `${describe(error)}${this.stderrNote()}`);
    }
  }

  private stderrNote(): string {
    const text = this.sdk && this.transport instanceof this.sdk.StdioServerProcess ? this.transport.stderr() : '';
    return text ? ` Its last output: ${text.slice(-500)}` : '';
  }

  /** Runs `run` with an abort signal that fires after timeout_seconds (on the injected timers). */
  private async bounded<T>(what: string, run: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
    const controller = new AbortController();
    const timeout = new McpTimeout(what, this.config.timeout_seconds);
    let timer: unknown = null;
    const expired = new Promise<never>((_, reject) => {
      timer = this.deps.timers.setTimeout(() => {
        controller.abort(timeout);
        reject(timeout);
      }, this.timeoutMs);
    });
    const onOuter = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuter, { once: true });
    try {
      return await Promise.race([run(controller.signal), expired]);
    } finally {
      this.deps.timers.clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  private fail(generation: number, message: string): void {
    if (this.generation !== generation) return;
    this.generation++;
    this.state = 'failed';
    this.tools = [];
    this.hidden = [];
    const now = this.deps.timers.now();
    this.lastError = { message, at: this.iso(now) };
    this.failures++;
    // Waits before restarting after the 1st, 2nd, … failure in a row: 1 s, 2 s, 4 s … at most a minute.
    const wait = backoffMs(this.failures);
    this.retryAt = now + wait;
    void this.closeQuietly();
    this.retryTimer = this.deps.timers.setTimeout(() => {
      this.retryTimer = null;
      if (this.state !== 'failed') return;
      this.restarts++;
      void this.start();
    }, wait);
  }

  /**
   * Calls one tool. Never throws for the server's sake: a server that is not running, times out or
   * breaks off gives `{ ok: false, message }`, which the agent is told.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ ok: true; result: CallToolResult } | { ok: false; message: string }> {
    const client = this.client;
    if (this.state !== 'ready' || !client) {
      const why = this.lastError ? ` (${this.lastError.message})` : '';
      return { ok: false, message: `The MCP server ${this.config.name} is not running${why}.` };
    }
    const generation = this.generation;
    try {
      const result = (await this.bounded(`The call to ${tool}`, (inner) => client.callTool({ name: tool, arguments: args }, undefined, { signal: inner, timeout: this.timeoutMs * 2 }), signal)) as CallToolResult;
      this.failures = 0;
      return { ok: true, result };
    } catch (error) {
      if (signal.aborted) return { ok: false, message: 'The answer was cancelled before the tool finished.' };
      const message = `${describe(error)}${this.stderrNote()}`;
      // The process may have died under the call: onclose has recorded that already.
      if (this.generation === generation && this.state === 'ready') this.lastError = { message, at: this.iso(this.deps.timers.now()) };
      return { ok: false, message };
    }
  }

  /** Ends the server for good: removed from the configuration, disabled, or Parley is stopping. */
  async stop(): Promise<void> {
    this.generation++;
    this.state = this.config.enabled ? 'stopped' : 'disabled';
    this.clearRetry();
    await this.closeQuietly();
  }

  private async disconnect(): Promise<void> {
    this.generation++;
    this.clearRetry();
    await this.closeQuietly();
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.deps.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }

  private async closeQuietly(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.transport = null;
    try {
      await client?.close();
    } catch (error) {
      this.deps.log.warn(`MCP server ${this.config.name} did not close cleanly: ${describe(error)}`);
    }
  }
}

async function listAllTools(client: Client, signal: AbortSignal, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  // A server may page its tools; a hundred pages is more than any real one has.
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { signal, timeout });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'The program was not found (check command, and PATH in env).';
    if (code === 'EACCES') return 'The program may not be run (permission denied).';
    // The SDK's words for a transport that went away under a request.
    if (/Connection closed/i.test(error.message)) return 'The server stopped.';
    return error.message;
  }
  return String(error);
}
