import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidthsThenResize } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let mia: { id: string; key: string };
let trialToken: string;

beforeAll(async () => {
  const created = (await (await suite.served.api('/admin/users', { body: { email: 'mia@example.com', name: 'Mia Wong', role: 'member' } })).json()) as {
    user: { id: string };
    api_key: { key: string };
  };
  mia = { id: created.user.id, key: created.api_key.key };
  const issued = (await (await suite.served.api('/admin/user-tokens', { body: { email: 'tess@example.com', expires_in: 7 * 86_400, quota: 5 } })).json()) as { token: string };
  trialToken = issued.token;
  // Tess asks one question: 4 of 5 model calls are left; the pages she reads spend nothing.
  await suite.served.api('/me', { token: trialToken });
  await suite.served.api('/chat', { token: trialToken, body: { message: 'hello' } });

  page = await suite.open('#/admin');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, suite.served.apiKey);
  await visible(page.getByRole('heading', { level: 1, name: 'Admin' }));
});

describe('Admin → Users: roles, access and keys of each user', () => {
  it('shows a trial user’s expiry and the model calls left', async () => {
    const row = await visible(page.getByRole('row', { name: /tess@example\.com/ }));
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Trial');
    expect(text).toContain('Valid for 7 more days');
    expect(text).toContain('4 of 5 model calls left');
  });

  it('lists a user’s keys, issues a new one shown once, and revokes the old one', async () => {
    await page.getByRole('button', { name: 'Manage Mia Wong' }).click();
    const panel = await visible(page.getByRole('region', { name: 'Manage Mia Wong' }));
    const keys = await visible(panel.getByRole('table', { name: 'API keys of Mia Wong' }));
    await eventually(() => keys.getByRole('row').count()).toBe(2);
    await eventually(() => keys.textContent()).toContain(mia.key.slice(0, 7));
    // One read, not retried: a retry could pass after a leaked key had been on screen.
    expect(await keys.textContent()).not.toContain(mia.key);

    await panel.getByLabel('New key name').fill('Replacement laptop');
    await panel.getByRole('button', { name: 'Issue key' }).click();
    const reveal = await visible(page.getByRole('region', { name: 'New API key for Mia Wong' }));
    await eventually(() => reveal.getByRole('textbox').inputValue()).toMatch(/^pk_/);
    const fresh = await reveal.getByRole('textbox').inputValue(); // settled: matched just above
    await visible(keys.getByRole('row', { name: /Replacement laptop/ }));
    const me = (await (await suite.served.api('/me', { token: fresh })).json()) as { user: { id: string } };
    expect(me.user.id).toBe(mia.id);
    expect(await inspectAtWidthsThenResize(page, 'admin-user-keys', { width: 1440, height: 900 })).toEqual([]);
    await reveal.getByRole('button', { name: 'I have saved the key' }).click();

    await keys.getByRole('button', { name: /Revoke the key First key/ }).click();
    const dialog = await visible(page.getByRole('dialog', { name: /Revoke “First key”/ }));
    expect(await inspectAtWidthsThenResize(page, 'admin-user-revoke', { width: 1440, height: 900 })).toEqual([]);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await keys.getByRole('row', { name: /First key/ }).waitFor({ state: 'detached' });
    expect((await suite.served.api('/me', { token: mia.key })).status).toBe(401);
    expect((await suite.served.api('/me', { token: fresh })).status).toBe(200);
  });

  it('changes a role and disables a user, whose keys stop at once; enabling brings them back', async () => {
    const panel = page.getByRole('region', { name: 'Manage Mia Wong' });
    await panel.getByLabel('Role', { exact: true }).selectOption('admin');
    await panel.getByRole('button', { name: 'Save role' }).click();
    await visible(page.getByRole('row', { name: /mia@example\.com/ }).getByRole('cell', { name: 'Admin', exact: true }));
    const fresh = (await (await suite.served.api(`/admin/users/${mia.id}/api-keys`)).json()) as { data: unknown[] };
    expect(fresh.data).toHaveLength(1);

    await panel.getByRole('button', { name: 'Disable Mia Wong' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Disable Mia Wong?' }));
    await dialog.getByRole('button', { name: 'Disable', exact: true }).click();
    await visible(page.getByRole('row', { name: /mia@example\.com/ }).getByText('Disabled'));
    const users = (await (await suite.served.api('/admin/users')).json()) as { data: { id: string; role: string; disabled: boolean }[] };
    expect(users.data.find((u) => u.id === mia.id)).toMatchObject({ role: 'admin', disabled: true });
    expect(await inspectAtWidthsThenResize(page, 'admin-user-disabled', { width: 1440, height: 900 })).toEqual([]);

    await panel.getByRole('button', { name: 'Enable Mia Wong' }).click();
    await visible(page.getByRole('row', { name: /mia@example\.com/ }).getByText('Active'));
  });

  it('a trial user has no keys to manage, and their token shows its limits', async () => {
    await page.getByRole('button', { name: /Manage tess/ }).click();
    const panel = await visible(page.getByRole('region', { name: /Manage tess/ }));
    await eventually(() => panel.textContent()).toContain('cannot hold API keys');
    await eventually(() => panel.textContent()).toContain('4 of 5 model calls left');
    await eventually(() => panel.getByRole('button', { name: 'Issue key' }).count()).toBe(0);
    expect(await inspectAtWidthsThenResize(page, 'admin-user-trial', { width: 1440, height: 900 })).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('a trial user sees their model calls left by the composer; a spent quota says so, with no Retry', async () => {
    const tess = await suite.open('#/chat');
    await signIn(tess, trialToken);
    await visible(tess.getByText('4 of 5 model calls left'));
    // Three more calls elsewhere (another tab, a script) leave one.
    for (let i = 0; i < 3; i++) await (await suite.served.api('/chat', { token: trialToken, body: { message: 'hello' } })).text();
    const composer = tess.getByLabel('Message', { exact: true });
    await composer.fill('Count slowly for me please');
    await composer.press('Enter');
    // The last call answers; the count is read again once it ends.
    await visible(tess.getByText('0 of 5 model calls left'), 20_000);
    await tess.getByRole('button', { name: 'Regenerate', exact: true }).click();
    const refusal = await visible(tess.getByRole('alert').filter({ hasText: "Your trial's model calls are used up. Ask an admin for more." }));
    expect(await refusal.getByRole('button', { name: /Retry|Continue/ }).count()).toBe(0);
    expect(await tess.getByText("The model's service is busy right now.").count()).toBe(0);
    expect(await inspectAtWidthsThenResize(tess, 'chat-trial-spent', { width: 1440, height: 900 })).toEqual([]);
    expect(pageProblems(tess)).toEqual([]);
  });

  it('ends a trial from its user’s panel after a confirmation; the token stops at once', async () => {
    const panel = await visible(page.getByRole('region', { name: /Manage tess/ }));
    await panel.getByRole('button', { name: 'End trial of tess' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'End the trial of tess?' }));
    await dialog.getByRole('button', { name: 'End trial', exact: true }).click();
    await visible(panel.getByText('Trial ended'));
    expect((await suite.served.api('/me', { token: trialToken })).status).toBe(401);
    expect(await panel.getByRole('button', { name: /End trial/ }).count()).toBe(0);
    expect(pageProblems(page)).toEqual([]);
  });
});
