/**
 * Issue 10, items 4, 7 and 10: a stored provider key sent to another origin, a data directory other
 * local users can read, and secrets reaching members through error text and model listings.
 */
import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { CREDENTIALS_KEY_FILE, legacySha256 } from '../../main/core/platform/auth/credential-hash.js';
import { newId, newSecret } from '../../main/core/platform/ids.js';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { testStorage, tempDir } from '../support/core.js';
import { call, person, type Person } from '../support/people.js';
import { collectingLogger } from '../support/logger.js';

let h: Harness;
let other: Upstream;
let member: Person;
const MODEL_KEY = 'sk-model-own-key-0123456789';

beforeAll(async () => {
  h = await startChatHarness();
  other = await startUpstream();
  member = await person(h.api, 'member');
});
afterAll(async () => {
  await h.close();
  await other.close();
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('a workspace override never inherits the model’s key across origins (issue 10, item 4)', () => {
  it('an override on another origin without its own key sends no key; on the same origin it inherits', async () => {
    const modelId = await h.addModel('Keyed', 'echo', { api_key: MODEL_KEY });
    const me = await call<{ workspace: { id: string } }>(h.api, '/me');
    const ws = me.body.workspace.id;
    const put = (endpoint_url: string, api_key?: string) =>
      call(h.api, `/workspaces/${ws}/model-overrides/${modelId}`, { method: 'PUT', body: { endpoint_url, ...(api_key ? { api_key } : {}) } });

    // Another origin (another port of loopback): the model's key must not go there.
    expect((await put(other.openaiBaseUrl)).status).toBe(200);
    await call(h.api, '/chat', { body: { message: 'hello', model_endpoint_override: modelId } });
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.requests.map((r) => r.apiKey)).not.toContain(MODEL_KEY);
    expect(JSON.stringify(other.requests.map((r) => r.headers))).not.toContain(MODEL_KEY);

    // The same origin (another path): the key was meant for it, so it follows.
    const before = h.upstream.requests.length;
    expect((await put(`${h.upstream.url}/v1/`)).status).toBe(200);
    const ok = await call<{ message: { content: string } }>(h.api, '/chat', { body: { message: 'hello', model_endpoint_override: modelId } });
    expect(ok.body.message.content).toBe('You said: hello');
    // The answer's call, and the new thread's title call if it came already: the same key.
    expect([...new Set(h.upstream.requests.slice(before).map((r) => r.apiKey))]).toEqual([MODEL_KEY]);
  });

  it('an override’s own key does not follow it to another origin either', async () => {
    const modelId = await h.addModel('Keyed twice', 'echo', { api_key: MODEL_KEY });
    const ws = (await call<{ workspace: { id: string } }>(h.api, '/me')).body.workspace.id;
    const url = `/workspaces/${ws}/model-overrides/${modelId}`;
    expect((await call(h.api, url, { method: 'PUT', body: { endpoint_url: `${h.upstream.url}/v1`, api_key: 'sk-override-key-abcdefgh' } })).status).toBe(200);
    const moved = await call<{ has_api_key: boolean }>(h.api, url, { method: 'PUT', body: { endpoint_url: other.openaiBaseUrl } });
    expect(moved.body.has_api_key).toBe(false);
    const seen = other.requests.length;
    await call(h.api, '/chat', { body: { message: 'hi', model_endpoint_override: modelId } });
    expect(other.requests.slice(seen).map((r) => r.apiKey)).not.toContain('sk-override-key-abcdefgh');
  });
});

describe('secrets never reach members (issue 10, item 10)', () => {
  /** An upstream that fails every call quoting what it was sent, as careless proxies do. */
  async function echoingUpstream() {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const message = `Invalid credentials: got Authorization: ${req.headers.authorization} for ${req.url}; see https://admin:hunter2hunter2@proxy.example/v1?api_key=sk-other-leak-99999999&page=2`;
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it('an upstream echoing the key: the member’s message, the thread and the model test show no credential', async () => {
    const echo = await echoingUpstream();
    try {
      const key = 'sk-live-SECRETSECRET1234567890';
      const created = await call<{ id: string }>(h.api, '/models', { body: { name: 'Leaky', provider: 'openai_compatible', endpoint_url: `${echo.url}/v1`, api_key: key, model: 'gpt-x' } });
      expect(created.status).toBe(201);
      const answer = await call<{ thread_id: string; message: { status: string } }>(h.api, '/chat', { token: member.key, body: { message: 'hi', model_endpoint_override: created.body.id } });
      expect(answer.body.message.status).toBe('error');
      const streamed = await h.api('/chat', { method: 'POST', token: member.key, body: JSON.stringify({ message: 'hi', stream: true, model_endpoint_override: created.body.id }) });
      const page = await call(h.api, `/threads/${answer.body.thread_id}/messages`, { token: member.key });
      const tested = await call<{ ok: boolean; detail: string }>(h.api, `/models/${created.body.id}/test`, { body: {} });
      const v1 = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: created.body.id, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const texts = { chat: JSON.stringify(answer.body), stream: await streamed.text(), page: JSON.stringify(page.body), test: JSON.stringify(tested.body), v1: await v1.text() };
      expect(tested.body.ok).toBe(false);
      expect(texts.page).toContain('Invalid credentials');
      for (const [where, text] of Object.entries(texts)) {
        for (const secret of [key, 'SECRETSECRET', 'hunter2', 'sk-other-leak', member.key]) expect(text, `${where} leaks ${secret}`).not.toContain(secret);
        expect(text, where).not.toMatch(/Bearer sk-/);
      }
      expect(texts.page).toContain('[redacted]');
    } finally {
      await echo.close();
    }
  });

  it('GET /models shows members the endpoint’s origin only, admins the URL minus credentials', async () => {
    const url = 'https://alice:pa55word@llm.example.com:8443/v1/deploy?api-version=2024-01&key=sekrit-query-key';
    const created = await call<{ id: string; endpoint_url: string }>(h.api, '/models', { body: { name: 'Remote', provider: 'openai_compatible', endpoint_url: url, model: 'm' } });
    expect(created.status).toBe(201);
    const asMember = (await call<{ data: { id: string; endpoint_url: string | null }[] }>(h.api, '/models', { token: member.key })).body.data.find((m) => m.id === created.body.id);
    expect(asMember?.endpoint_url).toBe('https://llm.example.com:8443');
    const asAdmin = (await call<{ data: { id: string; endpoint_url: string | null }[] }>(h.api, '/models')).body.data.find((m) => m.id === created.body.id);
    expect(asAdmin?.endpoint_url).toBe('https://[redacted]@llm.example.com:8443/v1/deploy?api-version=2024-01&key=[redacted]');
    expect(created.body.endpoint_url).not.toContain('pa55word');
    // Overrides too: members may list their workspace's.
    const ws = member.workspace_id;
    expect((await call(h.api, `/workspaces/${ws}/model-overrides/${created.body.id}`, { method: 'PUT', body: { endpoint_url: url } })).status).toBe(200);
    const overrides = await call<{ data: { model_id: string; endpoint_url: string }[] }>(h.api, `/workspaces/${ws}/model-overrides`, { token: member.key });
    expect(overrides.body.data.find((o) => o.model_id === created.body.id)?.endpoint_url).toBe('https://llm.example.com:8443');
  });
});

describe('the data directory is private; credentials are keyed hashes (issue 10, item 7)', () => {
  it('the directory is 0700 and every file Parley writes in it 0600', async () => {
    const dir = h.core.dataDir;
    // Write something to each: a file upload (blob) and the config (TOML).
    const ds = await call<{ kb_id: string }>(h.api, '/datasets', { body: { name: 'Private' } });
    const form = new FormData();
    form.append('file', new Blob(['private words'], { type: 'text/plain' }), 'p.txt');
    expect((await h.api(`/knowledge-bases/${ds.body.kb_id}/artifacts`, { method: 'POST', body: form })).status).toBe(201);
    const cfg = await call<{ version: number; toml: string }>(h.api, '/admin/config');
    expect((await call(h.api, '/admin/config', { method: 'PUT', body: { toml: `${cfg.body.toml}\n# saved by the test\n`, base_version: cfg.body.version } })).status).toBe(200);

    expect(mode(dir)).toBe(0o700);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const entry of readdirSync(d, { withFileTypes: true })) {
        const path = join(d, entry.name);
        if (entry.isDirectory()) {
          expect(mode(path), path).toBe(0o700);
          walk(path);
        } else files.push(path);
      }
    };
    walk(dir);
    // The database's files are in the data directory on SQLite; PostgreSQL keeps its own.
    const databaseFiles = testStorage() === 'sqlite' ? ['parley.db', 'parley.db-wal'] : [];
    for (const name of [...databaseFiles, 'parley.toml', CREDENTIALS_KEY_FILE]) expect(files, name).toContain(join(dir, name));
    expect(files.some((f) => f.includes(`${join(dir, 'blobs')}`))).toBe(true);
    for (const file of files) expect(mode(file), file).toBe(0o600);
  });

  it('an existing directory others can read is tightened at start-up, saying so in one line', async () => {
    const t = tempDir();
    try {
      const dir = join(t.dir, 'loose');
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      const first = bootCore(onTestStorage({ dataDir: dir, appVersion: 'test', watchConfigFile: false }));
      await first.close();
      for (const f of ['parley.db', 'parley.toml']) if (existsSync(join(dir, f))) chmodSync(join(dir, f), 0o644);
      chmodSync(dir, 0o755);
      const warnings: string[] = [];
      const again = bootCore(onTestStorage({ dataDir: dir, appVersion: 'test', watchConfigFile: false, log: collectingLogger(warnings) }));
      await again.close();
      const lines = warnings.filter((w) => /readable by other local users/.test(w));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/0755 to 0700/);
      expect(lines[0]?.split('\n')).toHaveLength(1);
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, testStorage() === 'sqlite' ? 'parley.db' : 'parley.toml'))).toBe(0o600);
      // Once tight, nothing more is said.
      const quiet: string[] = [];
      await bootCore(onTestStorage({ dataDir: dir, appVersion: 'test', watchConfigFile: false, log: collectingLogger(quiet) })).close();
      expect(quiet.filter((w) => /readable by other local users/.test(w))).toEqual([]);
    } finally {
      t.remove();
    }
  });

  it('keys are stored as HMAC-SHA-256 under the installation key, not bare SHA-256; the prefix is short', async () => {
    const created = await call<{ id: string; key: string; prefix: string }>(h.api, '/api-keys', { body: { name: 'hashed' } });
    expect(created.body.prefix).toHaveLength(7);
    const row = h.core.db.prepare('SELECT secret_hash, hash_kind, prefix FROM api_keys WHERE id = ?').get(created.body.id) as { secret_hash: string; hash_kind: string; prefix: string };
    expect(row.hash_kind).toBe('hmac_sha256');
    expect(row.secret_hash).not.toBe(legacySha256(created.body.key));
    const installKey = readFileSync(join(h.core.dataDir, CREDENTIALS_KEY_FILE));
    expect(row.secret_hash).toBe(createHmac('sha256', installKey).update(created.body.key).digest('hex'));
    // The database alone does not hold the key.
    expect(h.core.db.prepare("SELECT count(*) AS n FROM settings WHERE value = ?").get(installKey.toString('hex'))).toEqual({ n: 0 });
  });

  it('a key stored the old way (bare SHA-256) still signs in, once the old way: it is rehashed on first use', async () => {
    const key = newSecret('pk');
    const user = h.core.desktopCaller().user;
    h.core.repos.credentials.insertApiKey({ id: newId('key'), user_id: user.id, name: 'from 0.1', prefix: key.slice(0, 10), secret_hash: legacySha256(key), hash_kind: 'sha256', created_at: new Date().toISOString() });
    expect((await call(h.api, '/me', { token: key })).status).toBe(200);
    const row = h.core.db.prepare('SELECT secret_hash, hash_kind FROM api_keys WHERE name = ?').get('from 0.1') as { secret_hash: string; hash_kind: string };
    expect(row.hash_kind).toBe('hmac_sha256');
    expect(row.secret_hash).toBe(h.core.runtime.credentials.hash(key));
    expect((await call(h.api, '/me', { token: key })).status).toBe(200);
    // A bare hash of some other secret matched against keyed rows never signs in.
    expect((await call(h.api, '/me', { token: newSecret('pk') })).status).toBe(401);
  });
});
