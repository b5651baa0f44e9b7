import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServerConfig } from '../../../shared/config.js';
import { McpServerConnection } from '../../../main/core/conversation/mcp/connection.js';
import type { Timers } from '../../../main/core/conversation/mcp/timers.js';
import { MCP_FIXTURE } from '../../support/mcp.js';
import { silentLogger } from '../../../main/core/platform/logger.js';

/** Timers that fire only when the test moves the clock. */
class ManualTimers implements Timers {
  private clock = 1_700_000_000_000;
  private next = 0;
  readonly pending = new Map<number, { at: number; ms: number; run: () => void }>();
  setTimeout(run: () => void, ms: number): number {
    const id = ++this.next;
    this.pending.set(id, { at: this.clock + ms, ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  now(): number {
    return this.clock;
  }
  advance(ms: number): void {
    this.clock += ms;
    for (const [id, timer] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.clock) continue;
      this.pending.delete(id);
      timer.run();
    }
  }
  waiting(ms: number): number {
    return [...this.pending.values()].filter((t) => t.ms === ms).length;
  }
}

const open: McpServerConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.stop();
});

function fixture(timers: ManualTimers, timeoutSeconds: number): McpServerConnection {
  const config = McpServerConfig.parse({ name: 'fixture', command: process.execPath, args: ['--import', 'tsx', MCP_FIXTURE], timeout_seconds: timeoutSeconds });
  const connection = new McpServerConnection(config, { timers, clientInfo: { name: 'test', version: '1' }, log: silentLogger });
  open.push(connection);
  return connection;
}

const never = new AbortController().signal;

describe('an MCP server connection', () => {
  it('starts lazily, once, however many callers wait for it', async () => {
    const timers = new ManualTimers();
    const connection = fixture(timers, 30);
    expect(connection.snapshot().state).toBe('idle');
    await Promise.all([connection.ensureStarted(), connection.ensureStarted()]);
    expect(connection.snapshot()).toMatchObject({ state: 'ready', restarts: 0, last_error: null });
    expect(connection.offered().map((t) => t.name)).toContain('weather');
  }, 30_000);

  it('a call that hangs past timeout_seconds is answered as failed, reported, and the server stays usable', async () => {
    const timers = new ManualTimers();
    const connection = fixture(timers, 5);
    await connection.ensureStarted();
    const hanging = connection.call('hang', {}, never);
    // The call's timer is the one running now; moving the clock past it ends the call.
    expect(timers.waiting(5000)).toBe(1);
    timers.advance(5000);
    expect(await hanging).toEqual({ ok: false, message: 'The call to hang took longer than 5 s (timeout_seconds).' });
    expect(connection.snapshot()).toMatchObject({ state: 'ready', last_error: { message: 'The call to hang took longer than 5 s (timeout_seconds).' } });
    const echoed = await connection.call('echo', { text: 'still here' }, never);
    expect(echoed).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: 'still here' }] } });
  }, 30_000);

  it('a server that crashes restarts after an exponential back-off, reset by a successful call', async () => {
    const timers = new ManualTimers();
    const connection = fixture(timers, 30);
    await connection.ensureStarted();
    const crashed = await connection.call('crash', {}, never);
    expect(crashed.ok).toBe(false);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('failed'));
    const first = connection.snapshot();
    expect(first.last_error?.message).toBe('The server stopped. Its last output: crashing on purpose');
    expect(Date.parse(first.next_retry_at ?? '')).toBe(timers.now() + 1000);
    // Not needed meanwhile: a caller does not hurry it, and its tools are not offered.
    await connection.ensureStarted();
    expect(connection.snapshot().state).toBe('failed');
    expect(connection.offered()).toEqual([]);
    expect(await connection.call('echo', { text: 'x' }, never)).toEqual({ ok: false, message: 'The MCP server fixture is not running (The server stopped. Its last output: crashing on purpose).' });

    timers.advance(999);
    expect(connection.snapshot().state).toBe('failed');
    timers.advance(1);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('ready'), { timeout: 20_000 });
    expect(connection.snapshot().restarts).toBe(1);

    // A second failure in a row waits twice as long …
    await connection.call('crash', {}, never);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('failed'));
    expect(Date.parse(connection.snapshot().next_retry_at ?? '')).toBe(timers.now() + 2000);
    timers.advance(2000);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('ready'), { timeout: 20_000 });
    // … and a call that works resets it.
    expect((await connection.call('echo', { text: 'ok' }, never)).ok).toBe(true);
    await connection.call('crash', {}, never);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('failed'));
    expect(Date.parse(connection.snapshot().next_retry_at ?? '')).toBe(timers.now() + 1000);
    expect(connection.snapshot().restarts).toBe(2);
  }, 60_000);

  it('a program that does not exist fails to start with a plain reason', async () => {
    const timers = new ManualTimers();
    const config = McpServerConfig.parse({ name: 'ghost', command: '/nonexistent/parley-mcp-ghost' });
    const connection = new McpServerConnection(config, { timers, clientInfo: { name: 'test', version: '1' }, log: silentLogger });
    open.push(connection);
    await connection.ensureStarted();
    expect(connection.snapshot()).toMatchObject({ state: 'failed', last_error: { message: 'The program was not found (check command, and PATH in env).' } });
  });

  it('stop() ends it for good: no restart is left scheduled', async () => {
    const timers = new ManualTimers();
    const connection = fixture(timers, 30);
    await connection.ensureStarted();
    await connection.call('crash', {}, never);
    await vi.waitFor(() => expect(connection.snapshot().state).toBe('failed'));
    await connection.stop();
    expect(timers.waiting(1000)).toBe(0);
    timers.advance(60_000);
    expect(connection.snapshot().state).toBe('stopped');
  }, 30_000);
});
