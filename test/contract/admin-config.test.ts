import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { CONFIG_FILE } from '../../main/core/platform/config/load.js';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { TEST_ADMIN_KEY, startTestHttp, tempDir } from '../support/core.js';

interface State {
  toml: string;
  version: number;
  updated_at: string;
  updated_by: { id: string; name: string } | null;
  source: string;
  restart_required: string[];
  file_problems: { path: string; message: string; line?: number; column?: number }[];
  server_problem: string | null;
}

interface Problem {
  code: string;
  status: number;
  errors?: { path: string; message: string; line?: number; column?: number }[];
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function server(options: { dataDir?: string } = {}) {
  const h = await startTestHttp(options);
  closers.push(() => h.close());
  const json = async <T>(path: string, init: RequestInit & { token?: string | null } = {}) => {
    const res = await h.api(path, init);
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as T };
  };
  const state = async () => (await json<State>('/admin/config')).body;
  const put = (toml: string, base_version: number, token?: string) => json<State & Problem>('/admin/config', { method: 'PUT', body: JSON.stringify({ toml, base_version }), ...(token ? { token } : {}) });
  const patch = (values: Record<string, unknown>, base_version: number) => json<State & Problem>('/admin/config', { method: 'PATCH', body: JSON.stringify({ values, base_version }) });
  const file = () => readFileSync(join(h.core.dataDir, CONFIG_FILE), 'utf8');
  return { ...h, json, state, put, patch, file };
}

describe('GET /admin/config', () => {
  it('answers the version in force, as written in parley.toml', async () => {
    const s = await server();
    const state = await s.state();
    expect(state).toMatchObject({ toml: CONFIG_TEMPLATE, version: 1, updated_by: null, source: 'default', restart_required: [], file_problems: [], server_problem: null });
    expect(Date.parse(state.updated_at)).not.toBeNaN();
    expect(s.file()).toBe(state.toml);
  });
});

describe('PUT /admin/config', () => {
  it('saves a valid text as a new version, writes the file and applies it at once', async () => {
    const s = await server();
    const before = await s.state();
    expect((await s.json<{ orientation: string }>('/suggestions/prompts')).body.orientation).toBe('horizontal');

    const toml = before.toml.replace('carousel = "horizontal"', 'carousel = "vertical"').replace('simple_chat = false', 'simple_chat = true');
    const saved = await s.put(toml, before.version);
    expect(saved.status).toBe(200);
    const owner = s.core.desktopCaller().user;
    expect(saved.body).toMatchObject({ toml, version: before.version + 1, source: 'admin', updated_by: { id: owner.id, name: owner.name }, restart_required: [] });
    expect(s.file()).toBe(toml);

    // No restart: what reads the configuration sees the new one.
    expect((await s.json<{ orientation: string }>('/suggestions/prompts')).body.orientation).toBe('vertical');
    expect((await s.json<{ orientation: string }>('/suggestions/datasets')).body.orientation).toBe('vertical');
    expect((await s.json('/features')).body).toEqual({ simple_chat: true });
    expect(await s.state()).toMatchObject({ toml, version: before.version + 1 });
  });

  it('applies pieces built at start-up too: the circuit breaker, CORS origins and the body limit', async () => {
    const s = await server();
    const { version } = await s.state();
    const origin = 'http://localhost:5173';
    expect((await s.api('/me', { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();

    const saved = await s.patch({ 'routing.failure_threshold': 1, 'server.cors_origins': [origin], 'server.body_limit_mb': 0.01 }, version);
    expect(saved.status).toBe(200);
    expect(saved.body.restart_required).toEqual([]);

    s.core.runtime.health.recordFailure('mdl_x');
    expect(s.core.runtime.health.health('mdl_x').circuit).toBe('open');
    expect((await s.api('/me', { headers: { origin } })).headers.get('access-control-allow-origin')).toBe(origin);
    const big = await s.api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(20_000) }) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as Problem).code).toBe('payload_too_large');
    // The same body once the limit is raised again (then refused for its own reasons, not its size).
    await s.patch({ 'server.body_limit_mb': 1 }, version + 1);
    expect((await s.api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(20_000) }) })).status).toBe(400);
  });

  it('refuses an invalid text with 422, saying where each problem is written, and keeps what is in force', async () => {
    const s = await server();
    const before = await s.state();
    const broken = before.toml.replace('port = 4317', 'port = "four"');
    const res = await s.put(broken, before.version);
    expect(res.status).toBe(422);
    expect(res.type).toMatch(/^application\/problem\+json/);
    const portLine = broken.split('\n').findIndex((l) => l.startsWith('port =')) + 1;
    expect(res.body).toMatchObject({ code: 'unprocessable', errors: [{ path: 'server.port', line: portLine, column: 1, message: expect.any(String) }] });

    const syntax = await s.put('[server]\nport = = 1\n', before.version);
    expect(syntax.status).toBe(422);
    expect(syntax.body.errors?.[0]).toMatchObject({ line: 2, column: expect.any(Number) });

    expect(await s.state()).toMatchObject({ version: before.version, toml: before.toml });
    expect(s.file()).toBe(before.toml);
  });

  it('refuses a stale base_version with 409', async () => {
    const s = await server();
    const { toml, version } = await s.state();
    expect((await s.put(toml.replace('theme = "system"', 'theme = "dark"'), version)).status).toBe(200);
    const stale = await s.put(toml.replace('theme = "system"', 'theme = "light"'), version);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('conflict');
    expect((await s.state()).toml).toContain('theme = "dark"');
  });

  it('saving the text in force again changes nothing', async () => {
    const s = await server();
    const before = await s.state();
    const again = await s.put(before.toml, before.version);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(before);
    expect((await s.json<{ data: unknown[] }>('/admin/config/history')).body.data).toHaveLength(1);
  });
});

describe('PATCH /admin/config', () => {
  it('sets keys in the text as written, comments kept, and reports what waits for a restart', async () => {
    const s = await server();
    const before = await s.state();
    const res = await s.patch({ 'server.port': 4318, 'ui.carousel': 'vertical' }, before.version);
    expect(res.status).toBe(200);
    expect(res.body.toml).toBe(CONFIG_TEMPLATE.replace('port = 4317', 'port = 4318').replace('carousel = "horizontal"', 'carousel = "vertical"'));
    expect(res.body.toml).toContain('# Orientation of the home screen carousels');
    expect(s.file()).toBe(res.body.toml);
    expect((await s.json<{ orientation: string }>('/suggestions/prompts')).body.orientation).toBe('vertical');
    // Served mode listens where it started until it restarts; the page itself comes from there.
    expect(res.body.restart_required).toEqual(['server.port']);
    expect((await s.json('/server')).body).toEqual({ url: s.url, enabled: true, port: 4318, mode: 'served', problem: null });

    const back = await s.patch({ 'server.port': 4317 }, res.body.version);
    expect(back.body.restart_required).toEqual([]);
  });

  it('refuses unknown keys with 422 naming them, and malformed keys with 400', async () => {
    const s = await server();
    const { version } = await s.state();
    const unknown = await s.patch({ 'ui.carousell': 'vertical' }, version);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors?.[0]).toMatchObject({ path: 'ui.carousell', line: expect.any(Number) });
    const badValue = await s.patch({ 'server.port': 'four' }, version);
    expect(badValue.status).toBe(422);
    expect(badValue.body.errors?.[0]?.path).toBe('server.port');
    expect((await s.patch({ port: 1 }, version)).status).toBe(400);
    expect((await s.patch({}, version)).status).toBe(400);
    // Text that could not be written to the file and read back as it was sent.
    expect((await s.patch({ 'ui.theme': '\uD800' }, version)).status).toBe(400);
    expect((await s.put('# \uD800\n', version)).status).toBe(400);
    expect((await s.state()).version).toBe(version);
  });

  it('refuses a stale base_version with 409', async () => {
    const s = await server();
    const { version } = await s.state();
    await s.patch({ 'ui.theme': 'dark' }, version);
    expect((await s.patch({ 'ui.theme': 'light' }, version)).status).toBe(409);
  });
});

describe('history and rollback', () => {
  it('lists every version newest first; a rollback puts an old text back in force as a new version', async () => {
    const s = await server();
    const v1 = await s.state();
    const v2 = (await s.patch({ 'ui.carousel': 'vertical' }, v1.version)).body;
    const v3 = (await s.patch({ 'ui.theme': 'dark' }, v2.version)).body;

    const history = (await s.json<{ data: { version: number; source: string; toml: string; created_by: unknown; created_at: string }[] }>('/admin/config/history')).body.data;
    expect(history.map((v) => [v.version, v.source])).toEqual([
      [v3.version, 'admin'],
      [v2.version, 'admin'],
      [v1.version, 'default'],
    ]);
    expect(history[2]).toMatchObject({ toml: v1.toml, created_by: null });
    expect(history[0]?.created_by).toMatchObject({ id: s.core.desktopCaller().user.id });

    const rolled = await s.json<State>('/admin/config/rollback', { method: 'POST', body: JSON.stringify({ version: v1.version }) });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ toml: v1.toml, version: v3.version + 1, source: 'rollback' });
    expect(s.file()).toBe(v1.toml);
    expect((await s.json<{ orientation: string }>('/suggestions/prompts')).body.orientation).toBe('horizontal');

    const unknown = await s.json<Problem>('/admin/config/rollback', { method: 'POST', body: JSON.stringify({ version: 999 }) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });
});

describe('who may', () => {
  it('members get 403 on every configuration operation, and may read /features and /server', async () => {
    const s = await server();
    const { api_key } = (await s.json<{ api_key: { key: string } }>('/admin/users', { method: 'POST', body: JSON.stringify({ email: 'm@example.com', name: 'M' }) })).body;
    const token = api_key.key;
    for (const [method, path, body] of [
      ['GET', '/admin/config', undefined],
      ['PUT', '/admin/config', { toml: '', base_version: 1 }],
      ['PATCH', '/admin/config', { values: { 'ui.theme': 'dark' }, base_version: 1 }],
      ['GET', '/admin/config/history', undefined],
      ['POST', '/admin/config/rollback', { version: 1 }],
    ] as const) {
      const res = await s.json<Problem>(path, { method, token, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await s.json('/features', { token })).body).toEqual({ simple_chat: false });
    expect((await s.json('/server', { token })).body).toEqual({ url: s.url, enabled: true, port: 4317, mode: 'served', problem: null });
    expect((await s.api('/features', { token: null })).status).toBe(401);
    expect(s.core.desktopCaller().user.role).toBe('super_admin');
  });
});

describe('parley.toml and restarts', () => {
  it('a restart keeps the saved version in force, and the file matches it', async () => {
    const { dir, remove } = tempDir();
    closers.push(remove);
    const first = await startTestHttp({ dataDir: dir });
    const { version } = (await (await first.api('/admin/config')).json()) as State;
    const res = await first.api('/admin/config', { method: 'PATCH', body: JSON.stringify({ values: { 'ui.carousel': 'vertical' }, base_version: version }) });
    const saved = (await res.json()) as State;
    await first.close();

    const again = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY, watchConfigFile: false }));
    closers.push(() => again.close());
    const state = (await again.service.invoke('admin.config.get', {}, again.desktopCaller())) as State;
    expect(state).toMatchObject({ toml: saved.toml, version: saved.version, source: 'admin' });
    expect(again.config().ui.carousel).toBe('vertical');
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe(saved.toml);
    expect(((await again.service.invoke('admin.config.history', {}, again.desktopCaller())) as { data: unknown[] }).data).toHaveLength(2);
  });

  it('a valid hand edit while running becomes a version (source file) in force; an invalid one is reported', async () => {
    const s = await server();
    const before = await s.state();
    writeFileSync(join(s.core.dataDir, CONFIG_FILE), before.toml.replace('theme = "system"', 'theme = "dark"'));
    // Followed without any request (the file is watched) ...
    await vi.waitFor(() => expect(s.core.config().ui.theme).toBe('dark'), { timeout: 5000 });
    const edited = await s.state();
    expect(edited).toMatchObject({ version: before.version + 1, source: 'file', updated_by: null, file_problems: [] });

    const broken = edited.toml.replace('port = 4317', 'port = "four"');
    writeFileSync(join(s.core.dataDir, CONFIG_FILE), broken);
    // ... and checked again by every configuration operation.
    const reported = await s.state();
    expect(reported.version).toBe(edited.version);
    expect(reported.file_problems[0]).toMatchObject({ path: 'server.port', line: broken.split('\n').findIndex((l) => l.startsWith('port =')) + 1 });
    expect(s.core.config().server.port).toBe(4317);

    // A save from here replaces the broken file.
    const saved = await s.patch({ 'ui.theme': 'light' }, edited.version);
    expect(saved.body).toMatchObject({ file_problems: [], version: edited.version + 1 });
    expect(s.file()).toBe(saved.body.toml);
  });
});
