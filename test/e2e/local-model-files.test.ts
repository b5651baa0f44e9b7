import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGguf } from '../fixtures/gguf.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { openSettingsSection } from './support/settings.js';

const home = mkdtempSync(join(tmpdir(), 'parley-e2e-home-'));
const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-local-'));
/** A stand-in for a running Ollama (its discovery endpoint). */
const ollama = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(req.url === '/api/tags' ? JSON.stringify({ models: [{ name: 'llama3.1:8b' }, { name: 'qwen2.5:7b' }] }) : '{}');
});

// Runs before the suite's own beforeAll (hooks run in order): the server's data dir must be ready.
beforeAll(async () => {
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  // LM Studio is looked for on a port where nothing listens.
  writeFileSync(join(dataDir, 'parley.toml'), `[local_models]\nthreads = 1\ngpu = false\nollama_url = "${url}"\nlm_studio_url = "http://127.0.0.1:9"\n`);
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'tiny-chat-F32.gguf'), makeGguf({ name: 'Tiny Chat' }));
  writeFileSync(join(dataDir, 'models', 'notes.gguf'), 'my notes, not a model');
  const lmStudio = join(home, '.lmstudio', 'models', 'lmstudio-community', 'Tiny-GGUF');
  mkdirSync(lmStudio, { recursive: true });
  writeFileSync(join(lmStudio, 'tiny-embed.gguf'), makeGguf({ kind: 'embedding', name: 'Tiny Embed' }));
});

const suite = e2eSuite(() => ({ dataDir, env: { HOME: home } }));
let page: Page;

beforeAll(async () => {
  page = await suite.open('#/settings/local-models');
  await signIn(page, suite.served.apiKey);
  await page.goto(`${suite.served.url}/#/settings/local-models`);
  await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
});

afterAll(async () => {
  await new Promise((resolve) => ollama.close(resolve));
  rmSync(home, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Settings → Local models', () => {
  const region = () => page.getByRole('region', { name: 'Local models', exact: true });

  it('lists the GGUF files found, with what they are, where they lie and their size', async () => {
    const chat = await visible(region().getByRole('row', { name: /Tiny Chat/ }));
    await eventually(() => chat.textContent()).toMatch(/llama · F32 · 2,048 tokens · 426 KB/);
    await eventually(() => chat.textContent()).toMatch(/Parley’s models folder — .*tiny-chat-F32\.gguf/);
    await eventually(() => chat.textContent()).toMatch(/Not loaded/);
    const embed = await visible(region().getByRole('row', { name: /Tiny Embed/ }));
    await eventually(() => embed.textContent()).toMatch(/embeddings/);
    await eventually(() => embed.textContent()).toMatch(/LM Studio/);
    const notes = await visible(region().getByRole('row', { name: /notes/ }));
    await eventually(() => notes.textContent()).toMatch(/Failed.*not a GGUF model/);
    // The main table, in Settings → Models, leaves them to this section.
    await openSettingsSection(page, 'Models');
    const models = await visible(page.getByRole('region', { name: 'Models and providers' }));
    await visible(models.getByRole('row', { name: /Built-in/ }).first());
    expect(await models.getByRole('row', { name: /Tiny Chat/ }).count()).toBe(0);
    await page.goBack();
    await visible(region().getByRole('row', { name: /Tiny Chat/ }));
  });

  it('loads and unloads a model', async () => {
    const row = region().getByRole('row', { name: /Tiny Chat/ });
    await row.getByRole('button', { name: 'Load Tiny Chat' }).click();
    await visible(row.getByText('Loaded', { exact: true }), 20_000);
    await row.getByRole('button', { name: 'Unload Tiny Chat' }).click();
    await visible(row.getByText('Not loaded', { exact: true }), 20_000);
  });

  it('offers a running Ollama and registers it in one click', async () => {
    const server = await visible(region().getByRole('listitem').filter({ hasText: 'Ollama' }));
    await eventually(() => server.textContent()).not.toMatch(/Registered/);
    await server.getByRole('button', { name: 'Register Ollama' }).click();
    await visible(server.getByText('Registered'));
    await openSettingsSection(page, 'Models');
    await visible(page.getByRole('region', { name: 'Models and providers' }).getByRole('row', { name: /Ollama llama3\.1:8b/ }));
    await openSettingsSection(page, 'Local models');
  });

  it('refuses a file that is not GGUF when added by path, saying why', async () => {
    const form = region().getByRole('form', { name: 'Add a GGUF file' });
    await form.getByLabel('Add a GGUF file by path').fill(join(dataDir, 'models', 'notes.gguf'));
    await form.getByRole('button', { name: 'Add file' }).click();
    await visible(form.getByRole('alert').filter({ hasText: /not a GGUF model/ }));
  });

  it('looks right and passes axe, wide and narrow, light and dark', async () => {
    await region().scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await inspectPage(page, 'settings-local-models-1440')).toEqual([]);
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await inspectPage(page, 'settings-local-models-420')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});
