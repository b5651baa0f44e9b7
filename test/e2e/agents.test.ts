import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { chatPage } from './support/chat-page.js';
import { eventually } from './support/eventually.js';
import { addDataset } from './support/served-data.js';

const suite = e2eSuite();
let page: Page;
let datasetId = '';

const { composer, lastAnswer } = chatPage(() => page, suite);

beforeAll(async () => {
  // Two Markdown files, for the agent to search and read.
  const dataset = await addDataset(suite.served, { name: 'Village', description: 'Notes about the lighthouse.' }, {
    'lighthouse.md': '# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n',
    'keeper.md': '# Keeper\n\nThe keeper of the lighthouse logs the weather every night and lights the lamp again when a storm puts it out.\n',
  });
  datasetId = dataset.id;
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
    const village = page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ });
    await village.click();
    // Sent only once the dataset shows as attached (a CI run sent before it was, and the agent had nothing to search).
    await eventually(() => village.getAttribute('aria-pressed')).toBe('true');
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
    const kinds = () => thoughts.locator('.thought-kind').allTextContents();
    await eventually(async () => {
      const all = await kinds();
      return [all[0], all.at(-1)];
    }).toEqual(['Plan', 'Answer']);
    await eventually(kinds).toEqual(expect.arrayContaining(['Tool call', 'Observed']));
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
