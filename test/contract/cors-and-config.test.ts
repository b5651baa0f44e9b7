import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId, newSecret } from '../../main/core/platform/ids.js';
import { CONFIG_FILE } from '../../main/core/platform/config/load.js';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { startTestHttp, tempDir } from '../support/core.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Starts a server whose config file was written before start-up. */
async function withConfig(toml: string) {
  const { dir, remove } = tempDir();
  writeFileSync(join(dir, CONFIG_FILE), toml);
  const h = await startTestHttp({ dataDir: dir });
  closers.push(() => h.close(), remove);
  return h;
}

describe('CORS', () => {
  it('is off by default: no Access-Control-Allow-Origin is ever reflected, and preflights are refused', async () => {
    const h = await withConfig(CONFIG_TEMPLATE);
    const res = await h.api('/me', { headers: { origin: 'http://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${h.url}/api/me`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await pre.json()) as { code: string }).code).toBe('forbidden');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    // An OPTIONS without any Origin is no preflight of an allowed origin either.
    expect((await fetch(`${h.url}/api/me`, { method: 'OPTIONS' })).status).toBe(403);
  });

  it('allows exactly the configured origins', async () => {
    const h = await withConfig(CONFIG_TEMPLATE.replace('cors_origins = []', 'cors_origins = ["http://localhost:5173"]'));
    const ok = await h.api('/me', { headers: { origin: 'http://localhost:5173' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const pre = await fetch(`${h.url}/api/me`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Last-Event-ID, X-Api-Key, Anthropic-Version');
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(pre.headers.get('access-control-max-age')).toBe('600');
    // What a page on that origin may read of an answer, and caches keep answers per origin.
    expect(ok.headers.get('access-control-expose-headers')).toBe('Parley-Api-Version, Deprecation, Link');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const other = await h.api('/me', { headers: { origin: 'http://localhost:5174' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('[auth] allow_access_tokens = false', () => {
  it('refuses access tokens with 401 unauthenticated', async () => {
    const h = await withConfig(CONFIG_TEMPLATE.replace('allow_access_tokens = true', 'allow_access_tokens = false'));
    const token = newSecret('at');
    h.core.repos.credentials.insertAccessToken({ id: newId('atk'), user_id: h.core.desktopCaller().user.id, secret_hash: h.core.runtime.credentials.hash(token), hash_kind: 'hmac_sha256', created_at: new Date().toISOString() });
    const res = await h.api('/me', { token });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('unauthenticated');
  });
});

describe('[server] body_limit_mb', () => {
  it('sets the largest accepted JSON body', async () => {
    const h = await withConfig(CONFIG_TEMPLATE.replace('body_limit_mb = 1', 'body_limit_mb = 0.01'));
    const res = await h.api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(20_000) }) });
    expect(res.status).toBe(413);
  });
});

describe('[ui] carousel', () => {
  it('sets the orientation the home carousels are given', async () => {
    const h = await withConfig(CONFIG_TEMPLATE.replace('carousel = "horizontal"', 'carousel = "vertical"'));
    for (const path of ['/suggestions/prompts', '/suggestions/datasets']) {
      expect(((await (await h.api(path)).json()) as { orientation: string }).orientation).toBe('vertical');
    }
  });
});
