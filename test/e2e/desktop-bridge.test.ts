import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { IpcResult } from '../../shared/bridge.js';
import { ServiceError, isErrorCode } from '../../shared/errors.js';
import { isOperationName, operations } from '../../shared/operations/index.js';
import { fileURLToPath } from 'node:url';
import { createAppProtocolHandler } from '../../main/desktop/app-protocol.js';
import { CONTENT_SECURITY_POLICY } from '../../main/desktop/window.js';
import { buildHttpRequest } from '../../renderer/src/api/http-request.js';
import { e2eSuite, inspectPage, pageProblems, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

/**
 * The renderer as the desktop app runs it: `window.parley` present, so every call goes through the
 * bridge and nobody signs in. The fake bridge stands in for preload + IPC + main, answering as the
 * real one does (`{ ok, value } | { ok: false, error }`) from the served core, acting as `token`.
 */
const suite = e2eSuite();

async function mainProcess(token: string, operation: string, input: unknown): Promise<IpcResult> {
  if (!isOperationName(operation)) return { ok: false, error: new ServiceError('not_found', `No operation ${operation}.`).toPayload() };
  const request = buildHttpRequest(operations[operation], input);
  const response = await fetch(`${suite.served.url}/api${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body ?? null,
  });
  if (response.ok) return { ok: true, value: response.status === 204 ? null : await response.json() };
  const problem = (await response.json()) as { code: unknown; detail: string };
  const code = isErrorCode(problem.code) ? problem.code : 'internal';
  return { ok: false, error: new ServiceError(code, problem.detail).toPayload() };
}

/** Main's upload-part handler, played by the served core: the signed URL is the permission. */
async function mainUploadPart(url: string, bytes: Uint8Array<ArrayBuffer>): Promise<IpcResult> {
  const response = await fetch(new URL(url, suite.served.url), { method: 'PUT', body: bytes });
  if (response.ok) return { ok: true, value: await response.json() };
  const problem = (await response.json()) as { code: unknown; detail: string };
  return { ok: false, error: new ServiceError(isErrorCode(problem.code) ? problem.code : 'internal', problem.detail).toPayload() };
}

/** Opens the app with the fake bridge; `bridgeCalls` lists the operations it carried, `fetches` any API request the page made itself. */
async function openDesktop(
  answer: (operation: string, input: unknown) => Promise<IpcResult>,
  hash = '',
  prepare?: (page: Page) => Promise<unknown>,
): Promise<{ page: Page; bridgeCalls: string[]; fetches: string[] }> {
  const bridgeCalls: string[] = [];
  const fetches: string[] = [];
  const page = await suite.open(hash, {
    async prepare(page) {
      await prepare?.(page);
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) fetches.push(request.url());
      });
      await page.exposeFunction('__parleyTestInvoke', (operation: string, input: unknown) => {
        bridgeCalls.push(operation);
        return answer(operation, input);
      });
      // Bytes cross Playwright's binding as an array of numbers; main receives them as bytes.
      await page.exposeFunction('__parleyTestUploadPart', (url: string, bytes: number[]) => {
        bridgeCalls.push('uploadPart');
        return mainUploadPart(url, Uint8Array.from(bytes));
      });
      await page.addInitScript(() => {
        const test = window as unknown as {
          __parleyTestInvoke(op: string, input: unknown): Promise<unknown>;
          __parleyTestUploadPart(url: string, bytes: number[]): Promise<unknown>;
        };
        Object.defineProperty(window, 'parley', {
          value: Object.freeze({
            kind: 'desktop',
            invoke: (operation: string, input: unknown) => test.__parleyTestInvoke(operation, input),
            uploadPart: (url: string, bytes: ArrayBuffer) => test.__parleyTestUploadPart(url, Array.from(new Uint8Array(bytes))),
            stream: () => () => undefined,
          }),
        });
      });
    },
  });
  return { page, bridgeCalls, fetches };
}

describe('the renderer over the desktop bridge', () => {
  it('needs no sign-in, shows the desktop profile, and offers no sign-out', async () => {
    const { page, bridgeCalls, fetches } = await openDesktop((op, input) => mainProcess(suite.served.apiKey, op, input));
    await visible(page.getByRole('navigation', { name: 'Main' }));
    expect(bridgeCalls).toContain('identity.me');
    const me = (await (await suite.served.api('/me')).json()) as { user: { name: string } };
    await eventually(() => page.getByTestId('account-name').textContent()).toBe(me.user.name);
    await eventually(() => page.getByTestId('account-org').textContent()).toBe('Personal');
    await eventually(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    // No credential is kept in the page (the bridge is the credential); only the theme is remembered.
    await eventually(() => page.evaluate(() => Object.keys(localStorage).filter((k) => !k.startsWith('parley.theme')))).toEqual([]);
    expect(fetches).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('creates and revokes API keys through the bridge', async () => {
    const { page, bridgeCalls, fetches } = await openDesktop((op, input) => mainProcess(suite.served.apiKey, op, input), '#/settings/api');
    await page.getByLabel('New key name').fill('Desktop made');
    await page.getByRole('button', { name: 'Create key' }).click();
    const field = page.getByRole('region', { name: 'New key “Desktop made”' }).getByRole('textbox');
    await eventually(() => field.inputValue()).toMatch(/^pk_/);
    const key = await field.inputValue(); // settled: matched just above
    expect((await suite.served.api('/me', { token: key })).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke Desktop made' }).click();
    await (await visible(page.getByRole('dialog'))).getByRole('button', { name: 'Revoke key' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'was revoked' }));
    expect((await suite.served.api('/me', { token: key })).status).toBe(401);
    expect(bridgeCalls).toEqual(expect.arrayContaining(['apiKeys.list', 'apiKeys.create', 'apiKeys.delete']));
    expect(fetches).toEqual([]);
  });

  it('uploads files through the bridge, not over HTTP from the page', async () => {
    const { page, bridgeCalls, fetches } = await openDesktop((op, input) => mainProcess(suite.served.apiKey, op, input), '#/datasets');
    await page.getByLabel('Name').fill('Desktop notes');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Desktop notes' }));
    await page.getByLabel('Files to upload').setInputFiles({ name: 'tides.txt', mimeType: 'text/plain', buffer: Buffer.from('The keeper logs the tide at dawn.\n'.repeat(40)) });
    await visible(page.getByRole('row', { name: /tides\.txt/ }).getByText('Ready'), 20_000);
    expect(bridgeCalls).toEqual(expect.arrayContaining(['uploads.create', 'uploadPart', 'uploads.complete']));
    expect(fetches).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('rebuilds errors from the bridge with their code and shows them', async () => {
    const { page } = await openDesktop(async (op, input) =>
      op === 'apiKeys.create' ? { ok: false, error: new ServiceError('conflict', 'A key with this name already exists.').toPayload() } : mainProcess(suite.served.apiKey, op, input),
    '#/settings/api');
    await page.getByLabel('New key name').fill('Twice');
    await page.getByRole('button', { name: 'Create key' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe('A key with this name already exists.');
  });

  it('the app:// handler serves the split renderer under the desktop CSP: pages load their chunks when opened', async () => {
    const handle = createAppProtocolHandler(fileURLToPath(new URL('../../dist/renderer/', import.meta.url)));
    const served: string[] = [];
    const policies = new Set<string | null>();
    const { page } = await openDesktop(
      (op, input) => mainProcess(suite.served.apiKey, op, input),
      '#/settings/api',
      // Playwright cannot open app:// itself: the page's own origin is answered by the handler instead.
      (page) =>
        page.route(
          (url) => url.origin === suite.served.url && !url.pathname.startsWith('/api/'),
          async (route) => {
            const url = new URL(route.request().url());
            const response = await handle(new Request(`app://parley${url.pathname}`));
            served.push(url.pathname);
            policies.add(response.headers.get('content-security-policy'));
            await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) });
          },
        ),
    );
    await visible(page.getByRole('region', { name: 'API keys' }));
    expect(served.some((path) => /^\/assets\/SettingsPage-[\w-]+\.js$/.test(path))).toBe(true);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datasets', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Datasets' }));
    expect(served.some((path) => /^\/assets\/DatasetsPage-[\w-]+\.js$/.test(path))).toBe(true);
    // Every file, index.html and the chunks fetched later alike, came with the desktop policy.
    expect([...policies]).toEqual([CONTENT_SECURITY_POLICY]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('says so, with a way to retry, when the service does not answer', async () => {
    let up = false;
    const { page } = await openDesktop(async (op, input) =>
      up ? mainProcess(suite.served.apiKey, op, input) : { ok: false, error: new ServiceError('unavailable', 'The database is locked by another Parley.').toPayload() },
    );
    await visible(page.getByRole('heading', { name: 'Parley could not start' }));
    await eventually(() => page.getByRole('alert').textContent()).toContain('The database is locked by another Parley.');
    expect(await inspectPage(page, 'desktop-failed')).toEqual([]);
    up = true;
    await page.getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByRole('navigation', { name: 'Main' }));
  });
});
