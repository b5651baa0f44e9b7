import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ggufBytes, startDownloadServer, type DownloadServer } from '../fixtures/download-server.js';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';

/**
 * The home screen of a fresh install (only the built-in model): an admin is offered, in place, the
 * Ollama running on this machine (one click registers it) and recommended downloads, with the
 * progress of one under way; a member is told plainly to ask an admin.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-home-setup-'));
let upstream: Upstream;
let files: DownloadServer;
/**
 * A stand-in for a running Ollama: its own API names the models (how Ollama is found), and its
 * OpenAI-compatible API under /v1 is the fixture upstream's, which needs a key that Ollama does not.
 */
const ollama = http.createServer((req, res) => {
  if (req.url === '/api/tags') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ models: [{ name: 'echo' }] }));
    return;
  }
  const target = new URL(req.url ?? '/', upstream.url);
  const forward = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host, authorization: 'Bearer local' } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(forward);
});

// Runs before the suite's own beforeAll: the server reads this config when it starts.
beforeAll(async () => {
  upstream = await startUpstream();
  files = await startDownloadServer();
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
  // Nothing listens where LM Studio is looked for.
  const ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  writeFileSync(join(dataDir, 'parley.toml'), `[local_models]\nollama_url = "${ollamaUrl}"\nlm_studio_url = "http://127.0.0.1:9"\n`);
});

const suite = e2eSuite(() => ({ dataDir }));
let page: Page;

beforeAll(async () => {
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  files.release();
  await files.close();
  await new Promise((resolve) => ollama.close(resolve));
  await upstream.close();
});

const home = () => page.getByRole('heading', { name: 'Get a model that can chat' });

describe('home on a fresh install', () => {
  it('a member is told plainly to ask an admin, and offered nothing they cannot do', async () => {
    const created = await suite.served.api('/admin/users', { body: { email: 'mo@example.com', name: 'Mo Member', role: 'member' } });
    expect(created.status).toBe(201);
    const { api_key: { key } } = (await created.json()) as { api_key: { key: string } };
    const member = await suite.open('#/chat');
    await signIn(member, key);
    await member.goto(`${suite.served.url}/#/chat`);
    await visible(member.getByRole('heading', { name: 'Get a model that can chat' }));
    await visible(member.getByText('Ask an admin of Parley to add a model.'));
    expect(await member.getByRole('button', { name: /^Download/ }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Use / }).count()).toBe(0);
    expect(await inspectAtWidths(member, 'chat-home-member')).toEqual([]);
    await member.close();
  });

  it('an admin sees the Ollama found here, recommended downloads and a download under way; one click makes the server answer', async () => {
    // A download under way: the file server sends half and holds the rest.
    const bytes = ggufBytes(64 * 1024);
    const url = files.add('/models/tiny-chat.gguf', { bytes, holdAt: 32 * 1024 });
    expect((await suite.served.api('/models/downloads', { body: { url } })).status).toBe(202);

    // Read afresh: the page signed in before the download began.
    await page.goto(`${suite.served.url}/#/chat`);
    await page.reload();
    await visible(home());
    const found = page.getByRole('list', { name: 'Found on this machine' });
    await visible(found.getByText('Ollama is running on this machine'));
    const progress = page.getByRole('progressbar', { name: 'Downloading tiny-chat.gguf' });
    await visible(progress);
    await expect.poll(() => progress.getAttribute('value'), { timeout: 10_000 }).toBe('0.5');
    const recommended = page.getByRole('list', { name: 'Recommended downloads' });
    await expect.poll(() => recommended.getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await inspectAtWidths(page, 'chat-home-setup')).toEqual([]);

    await found.getByRole('button', { name: /^Use echo/ }).click();
    // Now a model can chat: the lead is gone and the model is in the picker.
    await expect.poll(() => home().count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByLabel('Model').locator('option').allTextContents()).toContainEqual(expect.stringContaining('Ollama echo'));
    const models = (await (await suite.served.api('/models')).json()) as { data: { name: string; provider: string }[] };
    expect(models.data).toContainEqual(expect.objectContaining({ name: 'Ollama echo', provider: 'openai_compatible' }));
  });
});
