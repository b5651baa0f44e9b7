/**
 * Settings → Models, issue 11 item 11: an Anthropic option, the model id picked from the
 * endpoint's own list, models edited in place, errors under the field they concern, and a model
 * whose test fails shown unavailable at once.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
  await page.goto(`${suite.served.url}/#/settings/models`);
  await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
});

afterAll(async () => {
  await upstream.close();
});

const models = () => page.getByRole('region', { name: 'Models and providers' });
const addForm = () => page.getByRole('form', { name: 'Add a model endpoint' });

describe('Settings → Models: add, pick, edit', () => {
  it('an empty form says under each field what it needs', async () => {
    await models().getByRole('button', { name: 'Add endpoint' }).click();
    const form = await visible(addForm());
    await form.getByRole('button', { name: 'Add model' }).click();
    await visible(form.getByText('Give the model a name people will recognise.'));
    await visible(form.getByText('The endpoint URL is needed for an OpenAI-compatible model.'));
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Model', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  });

  it('a key the endpoint refuses is reported under the API key', async () => {
    const form = addForm();
    await form.getByLabel('Endpoint URL').fill(upstream.openaiBaseUrl);
    await form.getByLabel('API key').fill('bad-key');
    await form.getByRole('button', { name: 'List models' }).click();
    await visible(form.getByText('The key was refused by the endpoint.'));
    expect(await form.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await addForm().waitFor({ state: 'detached' });
  });

  it('adds an Anthropic model, its id picked from the endpoint’s own list, and its test connects', async () => {
    await models().getByRole('button', { name: 'Add endpoint' }).click();
    const form = await visible(addForm());
    await form.getByLabel('Provider').selectOption('anthropic');
    await form.getByLabel('Name').fill('Claude at the gateway');
    await form.getByLabel('Endpoint URL').fill(upstream.anthropicBaseUrl);
    await form.getByLabel('API key').fill('ak-test');
    await form.getByRole('button', { name: 'List models' }).click();
    const picker = await visible(form.getByLabel('Models at this endpoint'));
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(['Pick a model…', 'context', 'echo', 'text-embedding-hash', 'tool']);
    await picker.selectOption('echo');
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('echo');
    expect(await inspectAtWidths(page, 'settings-model-add')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByRole('button', { name: 'Add model' }).click();
    await addForm().waitFor({ state: 'detached' });
    const row = await visible(models().getByRole('row', { name: /Claude at the gateway/ }));
    expect(await row.textContent()).toMatch(/Anthropic/);
    await row.getByRole('button', { name: 'Test Claude at the gateway' }).click();
    await visible(row.getByText(/Connected · \d+ ms/), 20_000);
    expect(upstream.requests.at(-1)).toMatchObject({ protocol: 'anthropic', apiKey: 'ak-test', model: 'echo' });
  });

  it('edits a model in place: a broken one is fixed, its stored key kept', async () => {
    await models().getByRole('button', { name: 'Add endpoint' }).click();
    const form = await visible(addForm());
    await form.getByLabel('Name').fill('Flaky server');
    await form.getByLabel('Endpoint URL').fill(upstream.openaiBaseUrl);
    await form.getByLabel('Model', { exact: true }).fill('status:503');
    await form.getByLabel('API key').fill('sk-flaky');
    await form.getByRole('button', { name: 'Add model' }).click();
    const row = await visible(models().getByRole('row', { name: /Flaky server/ }));

    // A failed test shows at once in the status: the model is out of routing until it passes.
    await row.getByRole('button', { name: 'Test Flaky server' }).click();
    await visible(row.locator('.test-result-failed'), 20_000);
    await visible(row.getByText('Unavailable'));

    await row.getByRole('button', { name: 'Edit Flaky server' }).click();
    const edit = await visible(page.getByRole('form', { name: 'Edit Flaky server' }));
    expect(await edit.getByLabel('Name').inputValue()).toBe('Flaky server');
    expect(await edit.getByLabel('API key', { exact: true }).getAttribute('placeholder')).toBe('Stored: leave empty to keep it');
    await edit.getByRole('button', { name: 'List models' }).click();
    await edit.getByLabel('Models at this endpoint').selectOption('echo');
    await edit.getByLabel('Name').fill('Steady server');
    // Marked as reading images in the same edit: the table then says so (issue 31, expectation 1).
    const reads = edit.getByLabel('Reads images');
    expect(await reads.isChecked()).toBe(false);
    await reads.check();
    expect(await inspectAtWidths(page, 'settings-model-edit')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });

    const fixed = await visible(models().getByRole('row', { name: /Steady server/ }));
    await visible(fixed.getByText('echo at'));
    await visible(fixed.getByText('Reads images'));
    expect(await models().getByText('Reads images').count()).toBe(1);
    expect(await inspectAtWidths(page, 'settings-models-reads-images')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await fixed.getByRole('button', { name: 'Test Steady server' }).click();
    await visible(fixed.getByText(/Connected · \d+ ms/), 20_000);
    await visible(fixed.getByText('Available'));
    // The stored key went along with the probe and the test, and was never typed again.
    expect(upstream.requests.at(-1)?.apiKey).toBe('sk-flaky');
    expect(pageProblems(page)).toEqual([]);
  });
});
