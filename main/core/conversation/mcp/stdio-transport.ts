import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Timers } from './timers.js';

/** How much of a server's stderr is kept to explain a failure. */
const STDERR_KEPT = 2_000;
/** After SIGTERM, a server has this long to exit before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * The environment a declared server runs with: exactly what the configuration gives it, plus PATH
 * (so `npx`, `node`, `uvx` resolve as in a terminal) unless the configuration sets PATH itself. On
 * Windows SYSTEMROOT too, without which many programs cannot start. Nothing else of Parley's
 * environment (provider keys, PARLEY_ADMIN_API_KEY, …) reaches it.
 */
export function serverEnvironment(configured: Record<string, string>, parent: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const env: Record<string, string> = {};
  if (!('PATH' in configured) && parent.PATH !== undefined) env.PATH = parent.PATH;
  if (platform === 'win32' && parent.SYSTEMROOT !== undefined && !('SYSTEMROOT' in configured)) env.SYSTEMROOT = parent.SYSTEMROOT;
  return { ...env, ...configured };
}

/**
 * The client side of MCP's stdio transport. The SDK's own (StdioClientTransport) always adds HOME,
 * USER, SHELL and more to the environment; this one gives the program only `serverEnvironment`,
 * starts it in its own process group and ends the whole group (an `npx` wrapper's child too).
 */
export class StdioServerProcess implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';

  constructor(
    private readonly params: { command: string; args: string[]; env: Record<string, string> },
    private readonly timers: Timers,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The end of what the program wrote to stderr, for the error an admin sees. */
  stderr(): string {
    return this.stderrTail.trim();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        // Its own process group, so stopping it stops what it started.
        detached: process.platform !== 'win32',
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a stray log line): reported, the rest still read.
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEPT);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('The server is not running.'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the program: stdin closed and SIGTERM to its group at once, SIGKILL if it lingers. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    signal(child, 'SIGTERM');
    const killer = this.timers.setTimeout(() => signal(child, 'SIGKILL'), KILL_GRACE_MS);
    await closed;
    this.timers.clearTimeout(killer);
    this.buffer.clear();
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // Already gone.
  }
}
