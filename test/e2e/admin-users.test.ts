import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;

beforeAll(async () => {
  page = await suite.open('#/admin');
  await signIn(page, suite.served.apiKey);
  await visible(page.getByRole('heading', { level: 1, name: 'Admin' }));
});

describe('Admin → Users', () => {
  it('lists the owner as a super admin, marked as you', async () => {
    const row = await visible(page.getByRole('row', { name: /owner@localhost/ }));
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Super admin');
    expect(text).toContain('You');
    expect(text).toContain('Active');
  });

  it('creates a user and shows their first API key once', async () => {
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Create user' }).click();

    const reveal = await visible(page.getByRole('region', { name: 'First API key for Ada Lovelace' }));
    await eventually(() => reveal.getByRole('textbox').inputValue()).toMatch(/^pk_/);
    const key = await reveal.getByRole('textbox').inputValue(); // settled: matched just above
    const row = await visible(page.getByRole('row', { name: /ada@example\.com/ }));
    await eventually(() => row.textContent()).toContain('Admin');
    expect(await inspectPage(page, 'admin-new-user')).toEqual([]);

    const me = (await (await suite.served.api('/me', { token: key })).json()) as { user: { name: string; role: string; organization: { name: string } } };
    expect(me.user).toMatchObject({ name: 'Ada Lovelace', role: 'admin', organization: { name: 'Personal' } });

    await reveal.getByRole('button', { name: 'I have saved the key' }).click();
    // One read, not retried: a retry could pass after a leaked key had been on screen.
    expect(await page.content()).not.toContain(key);
  });

  it('says which field is wrong when the service refuses the user', async () => {
    await page.getByLabel('Name').fill('Ada Again');
    await page.getByLabel('Email').fill('ADA@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    const error = await visible(page.getByRole('alert'));
    await eventually(() => error.textContent()).toMatch(/already exists/);
    await eventually(() => page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Create user' }).click();
    await visible(page.getByRole('alert').filter({ hasText: /email/i }));
    await eventually(() => page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await inspectPage(page, 'admin-invalid')).toEqual([]);

    const users = (await (await suite.served.api('/admin/users')).json()) as { data: unknown[] };
    expect(users.data).toHaveLength(2);
    expect(pageProblems(page)).toEqual([]);
  });
});
