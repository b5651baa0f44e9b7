/**
 * Admin → Workflows, issue 11 item 7: an existing workflow's name, prompt, datasets and agent mode
 * are edited in the UI; a missing prompt is refused under its field.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let workflowId: string;
let handbook: string;

type Workflow = { id: string; name: string; system_prompt: string; dataset_ids: string[]; agentic: boolean; active: boolean };

beforeAll(async () => {
  handbook = ((await (await suite.served.api('/datasets', { method: 'POST', body: { name: 'Staff handbook' } })).json()) as { id: string }).id;
  await suite.served.api('/datasets', { method: 'POST', body: { name: 'Price list' } });
  const created = await suite.served.api('/workflows', { method: 'POST', body: { name: 'Onboarding', system_prompt: 'Welcome new staff.' } });
  workflowId = ((await created.json()) as Workflow).id;
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
  await page.goto(`${suite.served.url}/#/admin/workflows`);
  await visible(page.getByRole('row', { name: /Onboarding/ }));
});

const stored = async () => ((await (await suite.served.api('/workflows')).json()) as { data: Workflow[] }).data.find((w) => w.id === workflowId);

describe('editing a workflow', () => {
  it('opens the workflow in a form with what it has now', async () => {
    await page.getByRole('button', { name: 'Edit Onboarding' }).click();
    const form = await visible(page.getByRole('form', { name: 'Edit Onboarding' }));
    expect(await form.getByLabel('Name').inputValue()).toBe('Onboarding');
    expect(await form.getByLabel('System prompt').inputValue()).toBe('Welcome new staff.');
    expect(await form.getByLabel(/^Agent mode/).isChecked()).toBe(false);
  });

  it('refuses an empty prompt under the field, and keeps the workflow as it was', async () => {
    const form = page.getByRole('form', { name: 'Edit Onboarding' });
    await form.getByLabel('System prompt').fill('   ');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await visible(form.getByText('Write the instructions the model gets.'));
    expect(await form.getByLabel('System prompt').getAttribute('aria-invalid')).toBe('true');
    expect((await stored())?.system_prompt).toBe('Welcome new staff.');
  });

  it('saves a new name, prompt, datasets and agent mode', async () => {
    const form = page.getByRole('form', { name: 'Edit Onboarding' });
    await form.getByLabel('Name').fill('Onboarding guide');
    await form.getByLabel('System prompt').fill('Guide new staff through their first week. Cite the handbook.');
    await form.locator('summary', { hasText: 'Datasets' }).click();
    await form.getByLabel('Staff handbook').check();
    await form.getByLabel(/^Agent mode/).check();
    expect(await inspectAtWidths(page, 'admin-workflow-edit')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    await visible(page.getByRole('row', { name: /Onboarding guide/ }));
    await expect.poll(stored).toMatchObject({
      name: 'Onboarding guide',
      system_prompt: 'Guide new staff through their first week. Cite the handbook.',
      dataset_ids: [handbook],
      agentic: true,
      active: true,
    });
  });

  it('Cancel leaves the workflow as it is', async () => {
    await page.getByRole('button', { name: 'Edit Onboarding guide' }).click();
    const form = await visible(page.getByRole('form', { name: 'Edit Onboarding guide' }));
    await form.getByLabel('Name').fill('Something else');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await stored())?.name).toBe('Onboarding guide');
    expect(pageProblems(page)).toEqual([]);
  });
});
