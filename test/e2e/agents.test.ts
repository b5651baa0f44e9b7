import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;
let datasetId = '';

/** A dataset with two Markdown files, processed, for the agent to search and read. */
async function addDataset(): Promise<void> {
  const res = await suite.served.api('/datasets', { body: { name: 'Village', description: 'Notes about the lighthouse.' } });
  const dataset = (await res.json()) as { id: string; kb_id: string };
  datasetId = dataset.id;
  const form = new FormData();
  form.append('file', new Blob(['# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n'], { type: 'text/markdown' }), 'lighthouse.md');
  form.append('file', new Blob(['# Keeper\n\nThe keeper of the lighthouse logs the weather every night and lights the lamp again when a storm puts it out.\n'], { type: 'text/markdown' }), 'keeper.md');
  const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${suite.served.apiKey}` } });
  expect(upload.status).toBe(201);
  for (const key of ['lighthouse.md', 'keeper.md']) {
    for (let i = 0; i < 400; i++) {
      const artifact = (await (await suite.served.api(`/knowledge-bases/${dataset.kb_id}/artifacts/${key}`)).json()) as { status: string };
      if (artifact.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const composer = () => page.getByLabel('Message', { exact: true });
const lastAnswer = () => page.getByRole('article', { name: 'Answer' }).last();

beforeAll(async () => {
  await addDataset();
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

describe('agentic answers in the browser', () => {
  it('the Agent switch sits by the model picker and is worked from the keyboard', async () => {
    await page.goto(`${suite.served.url}/#/chat`);
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    const agent = page.getByRole('switch', { name: 'Agent' });
    await visible(agent);
    await eventually(() => agent.isChecked()).toBe(false);
    await agent.focus();
    await page.keyboard.press('Space');
    await eventually(() => agent.isChecked()).toBe(true);
    await eventually(() => agent.getAttribute('aria-describedby')).toBe('agent-toggle-hint');
  });

  it('an agentic answer over a dataset shows its steps in a collapsible block, kept after a reload', async () => {
    await page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }).click();
    await page.getByLabel('Model').selectOption('mdl_extractive');
    await composer().fill('When is the lighthouse lamp lit?');
    await composer().press('Enter');
    await eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);

    const thoughts = lastAnswer().locator('details.thoughts');
    const summary = thoughts.locator('summary');
    await visible(summary);
    await eventually(() => summary.textContent()).toMatch(/^Agent thoughts \(\d+\)$/);
    await eventually(() => thoughts.getAttribute('open')).toBeNull();
    await summary.focus();
    await page.keyboard.press('Enter');
    await visible(thoughts.getByText('search_datasets {"query":"lighthouse lamp lit"}'));
    const kinds = await thoughts.locator('.thought-kind').allTextContents();
    expect(kinds[0]).toBe('Plan');
    expect(kinds.at(-1)).toBe('Answer');
    expect(kinds).toContain('Tool call');
    expect(kinds).toContain('Observed');
    await visible(thoughts.getByText(/lit at dusk by the keeper/).first());
    // The answer's Markdown renderer arrives lazily: the screenshot waits for the quotes it draws.
    await visible(lastAnswer().locator('.markdown blockquote').first());
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toMatch(/dusk/);
    expect(await inspectPage(page, 'chat-agent-thoughts')).toEqual([]);

    await page.reload();
    const stored = lastAnswer().locator('details.thoughts summary');
    await visible(stored);
    await eventually(() => stored.textContent()).toBe(await summary.textContent());
    await visible(lastAnswer().locator('.markdown blockquote').first());
    await page.setViewportSize({ width: 420, height: 800 });
    await stored.click();
    expect(await inspectPage(page, 'chat-agent-thoughts-narrow')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });

  it('deleting the dataset from its page deletes the thoughts that came from it, as its dialog says', async () => {
    const threads = (await (await suite.served.api('/threads')).json()) as { data: Array<{ id: string }> };
    const messages = (await (await suite.served.api(`/threads/${threads.data[0]?.id ?? ''}/messages`)).json()) as { data: Array<{ id: string; role: string }> };
    const answerId = messages.data.find((m) => m.role === 'assistant')?.id ?? '';
    const before = (await (await suite.served.api(`/messages/${answerId}/thoughts`)).json()) as { data: Array<{ dataset_id: string | null }> };
    expect(before.data.filter((t) => t.dataset_id === datasetId).length).toBeGreaterThan(0);

    await page.goto(`${suite.served.url}/#/datasets/${datasetId}`);
    await page.getByRole('button', { name: 'Delete dataset' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: /Delete “Village”/ }));
    await eventually(() => dialog.textContent()).toMatch(/agent thoughts/);
    await dialog.getByRole('button', { name: 'Delete dataset' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Datasets' }));

    const after = (await (await suite.served.api(`/messages/${answerId}/thoughts`)).json()) as { data: Array<{ dataset_id: string | null; kind: string }> };
    // Every step concerned that one dataset, the plan that named it included.
    expect(after.data).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});
