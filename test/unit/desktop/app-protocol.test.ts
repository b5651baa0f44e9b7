import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../../main/desktop/app-protocol.js';
import { CONTENT_SECURITY_POLICY } from '../../../main/desktop/window.js';
import { tempDir } from '../../support/core.js';

describe('the app:// protocol handler', () => {
  const { dir, remove } = tempDir('parley-renderer-');
  const root = join(dir, 'renderer');
  const handle = createAppProtocolHandler(root);
  const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

  beforeAll(() => {
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Parley</title>');
    writeFileSync(join(root, 'assets', 'main-abc.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'style.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  });
  afterAll(remove);

  it('serves index.html at the root, with the CSP and nosniff', async () => {
    const response = await get('app://parley/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Parley</title>');
  });

  it('serves assets with their MIME type', async () => {
    const script = await get('app://parley/assets/main-abc.js');
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(await script.text()).toBe('console.log(1)');
    expect((await get('app://parley/assets/style.css')).headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('never serves a file outside the renderer directory', async () => {
    for (const url of ['app://parley/../secret.txt', 'app://parley/%2e%2e/secret.txt', 'app://parley/assets/..%2f..%2fsecret.txt', 'app://parley/%2e%2e%2fsecret.txt']) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('outside the renderer');
    }
  });

  it('answers 404 for a missing asset, and the app for a client-side route', async () => {
    expect((await get('app://parley/assets/missing.js')).status).toBe(404);
    const route = await get('app://parley/threads/thr_1');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Parley</title>');
  });

  it('answers only its own host, and only reads', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://parley/index.html', 'POST')).status).toBe(405);
    expect((await get('app://parley/%E0%A4%A')).status).toBe(400);
  });

  it('says the renderer is not built when it is not', async () => {
    const response = await createAppProtocolHandler(join(dir, 'nowhere'))(new Request('app://parley/'));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('npm run build');
  });
});
