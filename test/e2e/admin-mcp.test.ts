import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../support/mcp.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;

/** Puts `tables` in place of the template's `servers = []`, as a super admin would. */
async function declare(tables: string[]): Promise<void> {
  const state = (await (await suite.served.api('/admin/config')).json()) as { toml: string; version: number };
  const toml = `${state.toml.replace(/^servers = \[\]\n/m, '')}\n${tables.join('\n\n')}\n`;
  const res = await suite.served.api('/admin/config', { method: 'PUT', body: { toml, base_version: state.version } });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  page = await suite.open('#/admin/mcp');
  await signIn(page, suite.served.apiKey);
  await visible(page.getByRole('heading', { level: 1, name: 'Admin' }));
});

describe('Admin → MCP', () => {
  it('with no server declared, says how to declare one', async () => {
    await visible(page.getByRole('heading', { name: 'No MCP servers are declared' }));
    await visible(page.getByText('[[mcp.servers]]', { exact: false }).first());
    expect(await inspectPage(page, 'admin-mcp-empty')).toEqual([]);
  });

  it('shows each server’s state, tools and last error, and connects one on demand', async () => {
    await declare([
      fixtureServer('notes', { tools: ['weather', 'echo', 'nope'], timeout_seconds: 60 }),
      fixtureServer('broken', { timeout_seconds: 60 }, ['--fail-start']),
      fixtureServer('archive', { enabled: false }),
    ]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const notes = await visible(page.getByRole('listitem', { name: 'notes' }));
    await eventually(() => notes.getByText('Not started').count()).toBe(1);
    await visible(page.getByRole('listitem', { name: 'archive' }).getByText('Disabled'));

    await notes.getByRole('button', { name: 'Connect notes' }).click();
    await visible(notes.getByText('Ready'), 30_000);
    const rows = notes.getByRole('table', { name: 'Tools of notes' }).getByRole('row');
    await eventually(() => rows.count()).toBe(3);
    await visible(notes.getByRole('rowheader', { name: /weather\s*mcp__notes__weather/ }));
    await visible(notes.getByText('The allow-list names tools this server does not have: nope.'));
    await visible(notes.getByText(/Left out by the allow-list \(6\): big, env, pid, fail, crash, hang/));

    const broken = page.getByRole('listitem', { name: 'broken' });
    await broken.getByRole('button', { name: 'Connect broken' }).click();
    await visible(broken.getByText('Failed'), 30_000);
    await visible(broken.getByText(/cannot start: FIXTURE_TOKEN is not set/));
    await visible(broken.getByText('Next attempt'));

    const listed = (await (await suite.served.api('/mcp/servers')).json()) as { data: Array<{ name: string; state: string }> };
    expect(listed.data.map((s) => [s.name, s.state])).toEqual([['notes', 'ready'], ['broken', 'failed'], ['archive', 'disabled']]);

    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await inspectPage(page, 'admin-mcp-1440')).toEqual([]);
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await inspectPage(page, 'admin-mcp-420')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  }, 90_000);
});
