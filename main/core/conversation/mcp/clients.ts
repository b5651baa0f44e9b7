import type { Config, McpServerConfig } from '../../../../shared/config.js';
import type { LiveConfig } from '../../platform/config/live.js';
import { McpServerConnection, type ConnectionDeps, type McpServerSnapshot } from './connection.js';
import type { McpClientsPort } from '../../platform/ports/mcp.js';

const same = (a: McpServerConfig, b: McpServerConfig) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The MCP servers of `[[mcp.servers]]`, following the configuration in force: a server added is
 * known at once (and started when first needed), one changed is restarted with its new settings,
 * one removed or disabled is stopped — its process ends.
 */
export class McpClients implements McpClientsPort {
  private readonly servers = new Map<string, McpServerConnection>();
  private readonly unsubscribe: () => void;

  constructor(
    live: Pick<LiveConfig, 'config' | 'onChange'>,
    private readonly deps: ConnectionDeps,
  ) {
    this.follow(live.config());
    this.unsubscribe = live.onChange(({ config }) => this.follow(config));
  }

  private follow(config: Config): void {
    const declared = new Map(config.mcp.servers.map((s) => [s.name, s]));
    for (const [name, connection] of this.servers) {
      const next = declared.get(name);
      if (!next || !same(next, connection.config)) {
        this.servers.delete(name);
        void connection.stop();
      }
    }
    for (const [name, server] of declared) {
      if (!this.servers.has(name)) this.servers.set(name, new McpServerConnection(server, this.deps));
    }
  }

  /** Every declared server, in the order of the configuration. */
  list(): McpServerSnapshot[] {
    return [...this.servers.values()].map((s) => s.snapshot());
  }

  get(name: string): McpServerConnection | undefined {
    return this.servers.get(name);
  }

  /**
   * The enabled servers, each started if it has not been yet (they start side by side, each
   * bounded by its timeout). Those that failed are left out; they are reported, never thrown.
   */
  async ready(): Promise<McpServerConnection[]> {
    const enabled = [...this.servers.values()].filter((s) => s.config.enabled);
    await Promise.all(enabled.map((s) => s.ensureStarted()));
    return enabled.filter((s) => s.offered().length > 0);
  }

  /** Stops every server (Parley is stopping). */
  async close(): Promise<void> {
    this.unsubscribe();
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map((s) => s.stop()));
  }
}
