import { fileURLToPath } from 'node:url';
import type { Harness } from './chat.js';

/** The fixture MCP server (stdio, official SDK), as Parley starts it. */
export const MCP_FIXTURE = fileURLToPath(new URL('../fixtures/mcp-server.ts', import.meta.url));

const toml = (value: unknown) => JSON.stringify(value);

/** A `[[mcp.servers]]` table that starts the fixture; `extra` adds keys (values written as TOML). */
export function fixtureServer(name: string, extra: Record<string, unknown> = {}, fixtureArgs: string[] = []): string {
  const lines = [`[[mcp.servers]]`, `name = ${toml(name)}`, `command = ${toml(process.execPath)}`, `args = ${toml(['--import', 'tsx', MCP_FIXTURE, ...fixtureArgs])}`];
  for (const [key, value] of Object.entries(extra)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      lines.push(`${key} = { ${Object.entries(value).map(([k, v]) => `${k} = ${toml(v)}`).join(', ')} }`);
    } else lines.push(`${key} = ${toml(value)}`);
  }
  return lines.join('\n');
}

/** Replaces the configuration with `base` plus `tables` (PUT /admin/config, as a super admin would). */
export async function setConfig(h: Harness, base: string, tables: string[]): Promise<void> {
  const state = await h.json<{ version: number }>('/admin/config', 'GET');
  // The template says `servers = []`; tables replace that line, as its comment tells people to.
  const text = tables.length > 0 ? base.replace(/^servers = \[\]\n/m, '') : base;
  const res = await h.json('/admin/config', 'PUT', { toml: `${text}\n${tables.join('\n\n')}\n`, base_version: state.body.version });
  if (res.status !== 200) throw new Error(`config refused: ${JSON.stringify(res.body)}`);
}
