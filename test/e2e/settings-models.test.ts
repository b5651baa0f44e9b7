import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { openSettingsSection } from './support/settings.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
  page = await suite.open('#/settings/models');
  await signIn(page, suite.served.apiKey);
  await page.goto(`${suite.served.url}/#/settings/models`);
  await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
});

afterAll(async () => {
  await upstream.close();
});

async function addModel(name: string, model: string) {
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const form = await visible(page.getByRole('form', { name: 'Add a model endpoint' }));
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Endpoint URL').fill(upstream.openaiBaseUrl);
  await form.getByLabel('Model', { exact: true }).fill(model);
  await form.getByLabel('API key').fill('sk-test-secret');
  await form.getByRole('button', { name: 'Add model' }).click();
  await form.waitFor({ state: 'detached' });
  return visible(page.getByRole('row', { name: new RegExp(name) }));
}

describe('Settings → Models and providers', () => {
  const models = () => page.getByRole('region', { name: 'Models and providers' });

  it('lists the built-in models', async () => {
    await visible(models().getByRole('row', { name: /Built-in/ }).first());
  });

  it('adds an OpenAI-compatible endpoint and its connection test answers ok with the latency', async () => {
    const row = await addModel('Echo upstream', 'echo');
    await eventually(() => row.textContent()).toMatch(/OpenAI-compatible/);
    await row.getByRole('button', { name: 'Test Echo upstream' }).click();
    await visible(row.getByText(/Connected · \d+ ms/), 20_000);
  });

  it('adds every model an endpoint lists at once, each as its own model', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = await visible(page.getByRole('form', { name: 'Add a model endpoint' }));
    await form.getByLabel('Name').fill('Batch');
    await form.getByLabel('Endpoint URL').fill(upstream.openaiBaseUrl);
    await form.getByLabel('API key').fill('sk-test-secret');
    await form.getByRole('button', { name: 'List models' }).click();
    await form.getByLabel('Select all (4)').check();
    await form.getByRole('button', { name: 'Add 4 models' }).click();
    await form.waitFor({ state: 'detached' });
    for (const id of ['echo', 'context', 'tool', 'text-embedding-hash']) {
      await visible(models().getByRole('row', { name: new RegExp(`Batch ${id}`) }));
    }
    const listed = (await (await suite.served.api('/models')).json()) as { data: { name: string; endpoint_url: string | null; has_api_key: boolean }[] };
    const batch = listed.data.filter((m) => m.name.startsWith('Batch '));
    expect(batch).toHaveLength(4);
    expect(batch.every((m) => m.endpoint_url === upstream.openaiBaseUrl && m.has_api_key)).toBe(true);
  });

  it('adding several at once keeps the ones added when another is refused, and says which', async () => {
    // An id longer than the service accepts (200 characters) is refused; the other still gets in.
    const odd = await startUpstream({ models: ['alpha', 'beta', 'z'.repeat(201)] });
    try {
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = await visible(page.getByRole('form', { name: 'Add a model endpoint' }));
      await form.getByLabel('Name').fill('Mixed');
      await form.getByLabel('Endpoint URL').fill(odd.openaiBaseUrl);
      await form.getByRole('button', { name: 'List models' }).click();
      await form.getByLabel('Select all (3)').check();
      await form.getByRole('button', { name: 'Add 3 models' }).click();
      const report = await visible(form.getByRole('alert').filter({ hasText: '2 of 3 added' }));
      await eventually(() => report.textContent()).toContain(`${'z'.repeat(201)}:`);
      await visible(models().getByRole('row', { name: /Mixed alpha/ }));
      await visible(models().getByRole('row', { name: /Mixed beta/ }));
      // Only the refused one is left to retry.
      await eventually(() => form.getByRole('group', { name: 'Or add several of them at once' }).getByRole('checkbox').count()).toBe(2);
      await form.getByRole('button', { name: 'Cancel' }).click();
      await form.waitFor({ state: 'detached' });
    } finally {
      await odd.close();
    }
  });

  it('a failing endpoint shows the error of its test', async () => {
    const row = await addModel('Broken upstream', 'status:503');
    // Nothing has reached it yet: it does not claim to be available (issue 31).
    await visible(row.getByText('Not checked yet'));
    expect(await row.getByText('Available', { exact: true }).count()).toBe(0);
    await row.getByRole('button', { name: 'Test Broken upstream' }).click();
    await visible(row.locator('.test-result-failed'), 20_000);
    await eventually(() => row.locator('.test-result-failed').textContent()).toMatch(/503/);
    await visible(row.getByText('Unavailable', { exact: true }));
    expect(await inspectPage(page, 'settings-models')).toEqual([]);
  });

  it('a model picked from the endpoint’s list fills an empty name', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = await visible(page.getByRole('form', { name: 'Add a model endpoint' }));
    await form.getByLabel('Endpoint URL').fill(upstream.openaiBaseUrl);
    await form.getByLabel('API key').fill('sk-test-secret');
    await form.getByRole('button', { name: 'List models' }).click();
    await form.getByLabel('Models at this endpoint').selectOption('echo');
    await eventually(() => form.getByLabel('Name').inputValue()).toBe('echo');
    await form.getByLabel('Name').fill('My echo');
    await form.getByLabel('Models at this endpoint').selectOption('tool');
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('tool');
    expect(await form.getByLabel('Name').inputValue()).toBe('My echo');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('sets and removes a workspace endpoint override', async () => {
    const region = page.getByRole('region', { name: 'Workspace endpoint overrides' });
    await visible(region.getByText(/No overrides/));
    await region.getByLabel('Model to override').selectOption({ label: 'Echo upstream' });
    await region.getByLabel('Override endpoint URL').fill(`${upstream.openaiBaseUrl}/`);
    await region.getByRole('button', { name: 'Set override' }).click();
    const row = await visible(region.getByRole('row', { name: /Echo upstream/ }));
    await row.getByRole('button', { name: /Remove override of Echo upstream/ }).click();
    await visible(region.getByText(/No overrides/));
  });

  it('removes a model after confirmation', async () => {
    await page.getByRole('button', { name: 'Remove Broken upstream' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: /Remove “Broken upstream”/ }));
    await dialog.getByRole('button', { name: 'Remove model' }).click();
    await page.getByRole('row', { name: /Broken upstream/ }).waitFor({ state: 'detached' });
  });

  it('lets a super admin choose the embedding model: automatic, keyword only or a local one', async () => {
    await openSettingsSection(page, 'Local models');
    const region = await visible(page.getByRole('region', { name: 'Search embeddings' }));
    // No model shipped or downloaded here: automatic means keyword search for now.
    await visible(region.getByText(/keyword only/i).first());
    const select = region.getByLabel('Embedding model');
    await eventually(() => select.inputValue()).toBe('auto');
    await eventually(() => select.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Automatic', 'Keyword only']));
    await select.selectOption({ label: 'Keyword only' });
    await region.getByRole('button', { name: 'Save embedding model' }).click();
    await eventually(async () => (await suite.served.api('/search/embedding')).json()).toMatchObject({ setting: 'none', model: null });
    expect(pageProblems(page)).toEqual([]);
  });

  it('shows the local server address and, to a super admin, its port to change', async () => {
    await openSettingsSection(page, 'Server and API keys');
    const region = await visible(page.getByRole('region', { name: 'Local HTTP server' }));
    await visible(region.getByText(`${suite.served.url}/v1`, { exact: true }));
    await eventually(() => region.getByLabel('Port').inputValue()).toBe('4317');
    await visible(region.getByRole('button', { name: 'Save server settings' }));
    // API keys are still there, as they were.
    await visible(page.getByRole('region', { name: 'API keys' }));
    expect(pageProblems(page)).toEqual([]);
    await openSettingsSection(page, 'Models');
  });

  it('a member sees the models but no admin action', async () => {
    const created = await suite.served.api('/admin/users', { method: 'POST', body: { email: 'member@example.com', name: 'Mo Member' } });
    const { api_key } = (await created.json()) as { api_key: { key: string } };
    const member = await suite.open('#/settings/models');
    await signIn(member, api_key.key);
    await member.goto(`${suite.served.url}/#/settings/models`);
    const region = await visible(member.getByRole('region', { name: 'Models and providers' }));
    await visible(region.getByRole('row', { name: /Echo upstream/ }));
    await visible(region.getByText('Only admins can add, test or remove models.'));
    await eventually(() => member.getByRole('button', { name: /^(Add endpoint|Test|Remove|Set override)/ }).count()).toBe(0);
    await openSettingsSection(member, 'Server and API keys');
    const server = member.getByRole('region', { name: 'Local HTTP server' });
    await visible(server.getByText('Only super admins can turn the server on or off or change its port.'));
    expect(await member.getByRole('button', { name: 'Save server settings' }).count()).toBe(0);
    await visible(server.getByText(suite.served.url, { exact: true }));
    expect(pageProblems(member)).toEqual([]);
  });
});
