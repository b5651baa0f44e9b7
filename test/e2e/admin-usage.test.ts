import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;

interface Metrics {
  totals: { chats: number; messages: number; input_tokens: number; output_tokens: number; uploads: number };
}

/** The day `days` days ago, as the chart names days. */
const dayName = (days: number) => new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.now() - days * 86_400_000));

beforeAll(async () => {
  // Activity to count: two messages in one chat answered by the offline model, and one uploaded file.
  const first = (await (await suite.served.api('/chat', { method: 'POST', body: { message: 'What do the harbour notes say?' } })).json()) as { thread_id: string };
  await suite.served.api('/chat', { method: 'POST', body: { thread_id: first.thread_id, message: 'And about the pier?' } });
  const ds = (await (await suite.served.api('/datasets', { method: 'POST', body: { name: 'Harbour' } })).json()) as { kb_id: string };
  await suite.served.api('/uploads', { method: 'POST', body: { kb_id: ds.kb_id, files: [{ key: 'notes.md', filename: 'notes.md', size: 10 }] } });

  page = await suite.open('#/admin/usage');
  await signIn(page, suite.served.apiKey);
  await visible(page.getByRole('heading', { level: 1, name: 'Admin' }));
});

describe('Admin → Usage, Workflows, Trial tokens', () => {
  it('the Usage tab shows the totals, per user and per model, and a described chart', async () => {
    const metrics = (await (await suite.served.api('/admin/metrics')).json()) as Metrics;
    expect(metrics.totals).toMatchObject({ chats: 1, messages: 2, uploads: 1 });
    const totals = await visible(page.getByRole('definition').first());
    await eventually(() => totals.isVisible()).toBe(true);
    const stat = async (label: string) => (await page.locator('.stat').filter({ hasText: label }).locator('dd').textContent())?.trim();
    await eventually(() => stat('Chats')).toBe('1');
    await eventually(() => stat('Messages')).toBe('2');
    await eventually(() => stat('Uploads')).toBe('1');
    await eventually(() => stat('Input tokens')).toBe(new Intl.NumberFormat('en-US').format(metrics.totals.input_tokens));

    const owner = await visible(page.getByRole('row', { name: /owner@localhost/ }));
    await eventually(() => owner.textContent()).toContain('Super admin');
    await visible(page.getByRole('table', { name: 'Usage by model' }));
    // Described in words: the total and the busiest day, today here.
    const today = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date());
    const total = new Intl.NumberFormat('en-US').format(metrics.totals.input_tokens + metrics.totals.output_tokens);
    await visible(page.getByRole('img', { name: `${total} tokens from ${dayName(30)} to ${today}; the busiest day was ${today} with ${total}.` }));
    expect(await inspectPage(page, 'admin-usage')).toEqual([]);

    await page.getByLabel('Period', { exact: true }).selectOption('7');
    await visible(page.getByRole('img', { name: new RegExp(`tokens from ${dayName(7)} to`) }));
    // Seven days back from now touch eight UTC days: a header row and eight in the table.
    await eventually(() => page.getByRole('table', { name: 'Usage per day', includeHidden: true }).getByRole('row', { includeHidden: true }).count()).toBe(9);
  });

  it('creates a workflow, lists it, deactivates it and deletes it after confirming', async () => {
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByLabel('Name').fill('Legal review');
    await page.getByLabel('Description').fill('Contracts, clause by clause');
    await page.getByLabel('System prompt').fill('You review contracts. Quote the clause you rely on.');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    const row = await visible(page.getByRole('row', { name: /Legal review/ }));
    await eventually(() => row.textContent()).toContain('Active');
    expect(await inspectPage(page, 'admin-workflows')).toEqual([]);

    const listed = (await (await suite.served.api('/workflows')).json()) as { data: Array<{ name: string; system_prompt: string }> };
    expect(listed.data).toEqual([expect.objectContaining({ name: 'Legal review', system_prompt: 'You review contracts. Quote the clause you rely on.' })]);

    await row.getByRole('button', { name: 'Deactivate Legal review' }).click();
    await visible(row.getByText('Inactive'));
    expect(((await (await suite.served.api('/workflows')).json()) as { data: unknown[] }).data).toEqual([]);

    await row.getByRole('button', { name: 'Delete Legal review' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: /Delete “Legal review”/ }));
    expect(await inspectPage(page, 'admin-workflow-delete')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete workflow' }).click();
    await page.getByRole('row', { name: /Legal review/ }).waitFor({ state: 'detached' });
  });

  it('issues a trial token, shown once, that signs a trial user in', async () => {
    await page.getByRole('link', { name: 'Trial tokens' }).click();
    await page.getByLabel('Email').fill('trial@example.com');
    await page.getByLabel('Expires after').selectOption(String(30 * 86_400));
    await page.getByLabel('Model-call quota').fill('100');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const reveal = await visible(page.getByRole('region', { name: 'Trial token for trial@example.com' }));
    await eventually(() => reveal.getByRole('textbox').inputValue()).toMatch(/^ut_/);
    const token = await reveal.getByRole('textbox').inputValue(); // settled: matched just above
    await eventually(() => reveal.textContent()).toContain('100 model calls');
    const row = await visible(page.getByRole('row', { name: /trial@example\.com/ }));
    // Its limits, as the list shows them: when it ends, and what is left of its quota.
    await eventually(() => row.textContent()).toMatch(/in 30 days|100 of 100 model calls left/);
    await eventually(() => row.textContent()).toContain('100 of 100 model calls left');
    expect(await inspectPage(page, 'admin-trial-token')).toEqual([]);

    const me = (await (await suite.served.api('/me', { token })).json()) as { user: { email: string; role: string } };
    expect(me.user).toEqual(expect.objectContaining({ email: 'trial@example.com', role: 'trial' }));
    await reveal.getByRole('button', { name: 'I have saved the key' }).click();
    // One read, not retried: a retry could pass after a leaked key had been on screen.
    expect(await page.content()).not.toContain(token);
    expect(pageProblems(page)).toEqual([]);
  });
});
