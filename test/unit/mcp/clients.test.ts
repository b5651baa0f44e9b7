import { describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../../shared/config.js';
import type { ConfigListener } from '../../../main/core/platform/config/live.js';
import { McpClients } from '../../../main/core/conversation/mcp/clients.js';
import { realTimers } from '../../../main/core/conversation/mcp/timers.js';
import { silentLogger } from '../../../main/core/platform/logger.js';

/** The part of LiveConfig the clients follow, moved by hand. */
function liveConfig(servers: unknown[]) {
  let config: Config = ConfigSchema.parse({ mcp: { servers } });
  const listeners = new Set<ConfigListener>();
  return {
    config: () => config,
    onChange: (listener: ConfigListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    apply(next: unknown[]) {
      const previous = config;
      config = ConfigSchema.parse({ mcp: { servers: next } });
      for (const listener of listeners) listener({ previous, config, version: 2 });
    },
    listeners,
  };
}

const deps = { timers: realTimers, clientInfo: { name: 'test', version: '1' }, log: silentLogger };
const ghost = (name: string, extra: Record<string, unknown> = {}) => ({ name, command: '/nonexistent/mcp-ghost', ...extra });

describe('the MCP servers of the configuration in force', () => {
  it('follow every change: added, changed (a fresh connection), disabled, removed', async () => {
    const live = liveConfig([ghost('a'), ghost('b')]);
    const clients = new McpClients(live, deps);
    expect(clients.list().map((s) => [s.name, s.state])).toEqual([['a', 'idle'], ['b', 'idle']]);
    await clients.ready();
    expect(clients.list().map((s) => s.state)).toEqual(['failed', 'failed']);
    const b = clients.get('b');

    live.apply([ghost('a'), ghost('b', { timeout_seconds: 5 }), ghost('c', { enabled: false })]);
    expect(clients.list().map((s) => [s.name, s.state])).toEqual([['a', 'failed'], ['b', 'idle'], ['c', 'disabled']]);
    expect(clients.get('b')).not.toBe(b);
    // The replaced connection was stopped, so its scheduled restart will not run.
    expect(b?.snapshot().state).toBe('stopped');

    live.apply([ghost('c', { enabled: false })]);
    expect(clients.list().map((s) => s.name)).toEqual(['c']);
    // Nothing disabled is started.
    expect(await clients.ready()).toEqual([]);
    expect(clients.get('c')?.snapshot().state).toBe('disabled');

    await clients.close();
    expect(live.listeners.size).toBe(0);
  });
});
