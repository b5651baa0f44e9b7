import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { openSettingsSection } from './support/settings.js';

const suite = e2eSuite();
let page: Page;
const dir = mkdtempSync(join(tmpdir(), 'parley-e2e-feedback-'));
/** A PDF that is not one: it uploads, then fails to be read. */
const BROKEN = join(dir, 'broken.pdf');

beforeAll(async () => {
  writeFileSync(BROKEN, '%PDF-1.7\nthis is not really a pdf at all\n%%EOF');
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const toasts = () => page.getByRole('region', { name: 'Notifications' }).getByRole('listitem');

/** Moves inside the app, as a user does: a full reload would forget the work going on in the background. */
async function navigate(name: string) {
  await mainNavLink(page, name).click();
  await visible(page.getByRole('heading', { level: 1, name }));
}

/** Holds the API requests `matching` until `release()`: what the page shows meanwhile can be looked at, no clock involved. */
async function hold(matching: (url: URL) => boolean) {
  const held: Route[] = [];
  let open = false;
  const handler = (route: Route) => (open ? route.continue() : void held.push(route));
  const predicate = (url: URL) => url.origin === suite.served.url && matching(url);
  await page.route(predicate, handler);
  return async () => {
    open = true;
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(predicate, handler);
  };
}

/** An SSE body as the service streams it: `event:` the type, `id:` its place, `data:` JSON. */
function sse(events: { event: string; data: unknown }[]): string {
  return events.map(({ event, data }, id) => `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** Answers the API requests `matching` with a 500 problem, as a service in trouble would. */
async function fail(matching: (url: URL) => boolean, detail: string) {
  const predicate = (url: URL) => url.origin === suite.served.url && matching(url);
  await page.route(predicate, (route) =>
    route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'internal', detail }) }),
  );
  return () => page.unroute(predicate);
}

describe('skeletons', () => {
  it('stand in for the datasets while they load, read out as one line, then give way to the page', async () => {
    const release = await hold((url) => url.pathname === '/api/datasets');
    await navigate('Datasets');
    const skeleton = await visible(page.locator('[data-skeleton="cards"]'));
    await eventually(() => skeleton.getAttribute('role')).toBe('status');
    await eventually(() => skeleton.textContent()).toBe('Loading your datasets…');
    expect(await inspectPage(page, 'skeleton-datasets')).toEqual([]);
    // Still under reduced motion (the suite's default); the shimmer only where motion is welcome.
    const animation = () => skeleton.locator('.skeleton-bar').first().evaluate((bar) => getComputedStyle(bar).animationName);
    await eventually(() => animation()).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await eventually(() => animation()).toBe('skeleton-shimmer');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await release();
    await visible(page.getByRole('heading', { level: 2, name: 'Create your first dataset' }));
    await skeleton.waitFor({ state: 'detached' });
  });

  it('stand in for the thread list and the messages of a thread', async () => {
    const thread = (await (await suite.served.api('/threads', { body: { title: 'Held thread' } })).json()) as { id: string };
    const release = await hold((url) => url.pathname.startsWith('/api/threads'));
    await page.goto(`${suite.served.url}/#/chat/${thread.id}`);
    await visible(page.locator('[data-skeleton="list"]'));
    await visible(page.locator('[data-skeleton="messages"]'));
    expect(await inspectPage(page, 'skeleton-chat')).toEqual([]);
    await release();
    await visible(page.getByRole('link', { name: 'Held thread' }));
    await page.locator('[data-skeleton]').first().waitFor({ state: 'detached' });
    expect(pageProblems(page)).toEqual([]);
  });
});

describe('toasts for failures out of view', () => {
  it('a file that fails after its dataset was left is said in a toast, with a link back; Esc dismisses it', async () => {
    await suite.served.api('/datasets', { body: { name: 'Quarterly reports' } });
    await navigate('Datasets');
    await page.getByRole('link', { name: 'Quarterly reports' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Quarterly reports' }));
    await page.getByLabel('Files to upload').setInputFiles(BROKEN);
    await visible(page.getByText('1 of 1 file sent'));
    await navigate('Chat');

    const toast = await visible(toasts().filter({ hasText: '“broken.pdf” could not be added to Quarterly reports' }), 20_000);
    await eventually(() => toast.getByRole('alert').textContent()).toMatch(/could not be read/i);
    await visible(toast.getByRole('link', { name: 'Open Quarterly reports' }));
    expect(await inspectPage(page, 'toast-error')).toEqual([]);

    await toast.getByRole('button', { name: /^Dismiss/ }).focus();
    await page.keyboard.press('Escape');
    await toast.waitFor({ state: 'detached' });
  });

  it('a thread list that cannot be refreshed keeps its threads and says so in a toast; the close button dismisses it', async () => {
    await page.goto(`${suite.served.url}/#/chat`);
    await visible(page.getByRole('link', { name: 'Held thread' }));
    const restore = await fail((url) => url.pathname === '/api/threads' && url.search !== '', 'The thread index is being rebuilt.');
    await page.getByLabel('Message', { exact: true }).fill('What is in my datasets?');
    await page.getByLabel('Message', { exact: true }).press('Enter');

    const toast = await visible(toasts().filter({ hasText: 'The thread list could not be refreshed' }));
    await eventually(() => toast.textContent()).toContain('The thread index is being rebuilt.');
    await visible(page.getByRole('link', { name: 'Held thread' }));
    await restore();
    await toast.getByRole('button', { name: /^Dismiss/ }).click();
    await toast.waitFor({ state: 'detached' });
  });

  it('an answer that ends in an error after its thread was left is said in a toast that leads back to it', async () => {
    const held = (await (await suite.served.api('/threads', { body: { title: 'Failing thread' } })).json()) as { id: string };
    await suite.served.api('/threads', { body: { title: 'Another thread' } });
    await page.goto(`${suite.served.url}/#/chat/${held.id}`);
    // Only the hash changed: load again, so the list has the threads made above.
    await page.reload();
    await visible(page.getByRole('link', { name: 'Another thread' }));

    // The answer's stream is held until the reader has moved on, then ends in an error.
    let release = () => undefined as void;
    const moved = new Promise<void>((resolve) => (release = resolve));
    const chat = (url: URL) => url.origin === suite.served.url && url.pathname === '/api/chat';
    await page.route(chat, async (route) => {
      await moved;
      const ids = { message_id: 'msg_failing', user_message_id: 'msg_asking' };
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: sse([
          { event: 'message.created', data: { ...ids, thread_id: held.id, routing: { mode: 'dynamic', model_id: 'mdl_x', reason: 'test', skipped: [] } } },
          { event: 'error', data: { code: 'upstream_error', detail: 'The model stopped answering.', message_id: ids.message_id } },
        ]),
      });
    });
    await page.getByLabel('Message', { exact: true }).fill('Will this answer fail?');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.getByRole('link', { name: 'Another thread' }).click();
    await page.waitForFunction((left) => window.location.hash !== `#/chat/${left}`, held.id);
    release();

    const toast = await visible(toasts().filter({ hasText: 'An answer in another thread stopped with an error' }));
    await eventually(() => toast.textContent()).toContain('The model stopped answering.');
    await page.unroute(chat);
    await toast.getByRole('link', { name: 'Open the thread' }).click();
    expect(new URL(page.url()).hash).toBe(`#/chat/${held.id}`);
    await toast.waitFor({ state: 'detached' });
  });

  it('a lost connection is said once, and so is its return', async () => {
    // The page's clock from here on (it flows as the real one until told to run ahead): the probe's
    // knock every 3 s while the service is gone, and the good news's 5 s, are run through, not waited.
    // The file's last test: the shared page keeps this clock.
    await page.clock.install();
    const refuse = (url: URL) => url.origin === suite.served.url && url.pathname.startsWith('/api/');
    await page.route(refuse, (route) => route.abort('connectionrefused'));
    await navigate('Settings');
    await openSettingsSection(page, 'Models');
    const lost = await visible(toasts().filter({ hasText: 'Lost the connection to Parley' }));
    // Every section failed to load, each inline; the connection is said once.
    await eventually(() => toasts().count()).toBe(1);
    expect(await inspectPage(page, 'toast-connection')).toEqual([]);

    await page.unroute(refuse);
    // The probe's next knock (api/reachability.ts, every 3 s while the service is gone) comes now.
    await page.clock.runFor(3_000);
    const back = await visible(toasts().filter({ hasText: 'Connected to Parley again' }));
    await lost.waitFor({ state: 'detached' });
    // Good news goes by itself (after 5 s, ui/Toaster.tsx); errors wait to be dismissed.
    await page.clock.runFor(5_000);
    await back.waitFor({ state: 'detached' });
  });
});
