import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;

interface ConfigState {
  toml: string;
  version: number;
  restart_required: string[];
}

async function configState(): Promise<ConfigState> {
  return (await (await suite.served.api('/admin/config')).json()) as ConfigState;
}

/** Replaces the editor's whole text as a person would: select all, type. */
async function replaceText(text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'parley.toml' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await editor.fill(text);
}

beforeAll(async () => {
  page = await suite.open('#/admin/config');
  await signIn(page, suite.served.apiKey);
  await visible(page.getByRole('heading', { level: 2, name: 'Configuration' }));
});

describe('Admin → Configuration', () => {
  it('shows the configuration in force in an editor, with its version', async () => {
    const state = await configState();
    const editor = await visible(page.getByRole('textbox', { name: 'parley.toml' }));
    await eventually(() => editor.textContent()).toContain('[server]');
    await visible(page.getByText(`Version ${state.version}`, { exact: false }).first());
    await eventually(() => page.getByRole('link', { name: 'Configuration' }).getAttribute('aria-current')).toBe('page');
    await eventually(() => page.getByRole('button', { name: 'Save configuration' }).isDisabled()).toBe(true);
    expect(await inspectPage(page, 'admin-config')).toEqual([]);
  });

  it('refuses an invalid configuration, points at the line, and keeps the text', async () => {
    const before = await configState();
    await replaceText('[ui]\ncarousel = "diagonal"\n');
    // Checked as it is typed, before any save: the line is marked.
    await visible(page.locator('.cm-lintRange-error'));
    await eventually(() => page.locator('.cm-lint-marker-error').count()).toBe(1);
    await page.getByRole('button', { name: 'Save configuration' }).click();

    const alert = await visible(page.getByRole('alert').filter({ hasText: 'Not saved' }));
    await eventually(() => alert.textContent()).toMatch(/Line 2, column 1/);
    await eventually(() => alert.textContent()).toContain('ui.carousel');
    // The problem is marked in the editor too, and clicking it puts the cursor on its line.
    await visible(page.locator('.cm-lintRange-error'));
    await alert.getByRole('button', { name: /Line 2/ }).click();
    await eventually(() => page.locator('.cm-activeLine').textContent()).toContain('carousel');
    await eventually(() => page.getByRole('textbox', { name: 'parley.toml' }).textContent()).toContain('diagonal');
    expect(await inspectPage(page, 'admin-config-invalid')).toEqual([]);

    expect((await configState()).version).toBe(before.version);
    expect(pageProblems(page)).toEqual([]);
  });

  it('saves a valid configuration as a new version that is in force at once', async () => {
    const before = await configState();
    await replaceText('[ui]\ncarousel = "vertical"\n');
    await page.keyboard.press('ControlOrMeta+s');

    await visible(page.getByRole('status').filter({ hasText: `Saved as version ${before.version + 1}` }));
    const after = await configState();
    expect(after.version).toBe(before.version + 1);
    expect(after.toml).toBe('[ui]\ncarousel = "vertical"\n');
    expect(readFileSync(join(suite.served.dataDir, 'parley.toml'), 'utf8')).toBe(after.toml);
    const prompts = (await (await suite.served.api('/suggestions/prompts')).json()) as { orientation: string };
    expect(prompts.orientation).toBe('vertical');
  });

  it('lists the history and restores an earlier version after a confirmation', async () => {
    const before = await configState();
    const history = page.getByRole('region', { name: 'History' });
    await visible(history.getByText(`Version ${before.version}`, { exact: true }));
    await history.getByRole('button', { name: `Restore version ${before.version - 1}` }).click();

    const dialog = await visible(page.getByRole('dialog', { name: `Restore version ${before.version - 1}?` }));
    expect(await inspectPage(page, 'admin-config-restore')).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await visible(page.getByRole('status').filter({ hasText: `Saved as version ${before.version + 1}` }));

    const after = await configState();
    expect(after.toml).toContain('[server]');
    await visible(history.getByText(`Version ${after.version}`, { exact: true }));
    expect(pageProblems(page)).toEqual([]);
  });
});

describe('Settings → Local HTTP server', () => {
  it('shows where the server listens and saves a new port, which served mode applies at the next start', async () => {
    await page.goto(`${suite.served.url}/#/settings/api`);
    const section = await visible(page.getByRole('region', { name: 'Local HTTP server' }));
    await visible(section.getByText(suite.served.url, { exact: true }));
    // Served mode serves this very page: its switch cannot turn it off.
    await eventually(() => section.getByRole('checkbox', { name: 'Serve the HTTP API on this machine' }).isDisabled()).toBe(true);

    await section.getByLabel('Port').fill('70000');
    await visible(section.getByText(/Enter a port from 0 to 65535/));
    await eventually(() => section.getByRole('button', { name: 'Save server settings' }).isDisabled()).toBe(true);

    await section.getByLabel('Port').fill('4399');
    await section.getByRole('button', { name: 'Save server settings' }).click();
    await visible(section.getByRole('status').filter({ hasText: /Restart Parley to apply/ }));
    expect(await inspectPage(page, 'settings-server-saved')).toEqual([]);

    const state = await configState();
    expect(state.toml).toMatch(/^port = 4399/m);
    // The comments of the file are kept: the edit touched one line.
    expect(state.toml).toContain('# ');
    expect(state.restart_required).toContain('server.port');
    expect(pageProblems(page)).toEqual([]);
  });
});
