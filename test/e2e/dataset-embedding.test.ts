/**
 * Issue 9 item 4 in the UI: once a file is ready, its vectors come in the background and the file
 * table shows each file's own embedding progress, updated live, then nothing once complete.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;
let dataset: { id: string; kb_id: string };

/** Many short sections: several batches of chunks, so that the vectors come batch by batch. */
const LONG = Array.from({ length: 160 }, (_, i) => `## Section ${i}\n\nHarbour record ${i}: the tide table for pier ${i} was checked.`).join('\n\n');

beforeAll(async () => {
  upstream = await startUpstream();
  const model = (await (
    await suite.served.api('/models', { method: 'POST', body: { name: 'Embeddings', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'embed' } })
  ).json()) as { id: string };
  const config = (await (await suite.served.api('/admin/config')).json()) as { version: number };
  const patched = await suite.served.api('/admin/config', { method: 'PATCH', body: { values: { 'retrieval.embedding_model': model.id }, base_version: config.version } });
  expect(patched.status).toBe(200);
  dataset = (await (await suite.served.api('/datasets', { method: 'POST', body: { name: 'Harbour records' } })).json()) as { id: string; kb_id: string };
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

afterAll(async () => {
  await upstream.close();
});

describe('embedding progress in the file table', () => {
  it('shows a ready file’s vectors coming, then only Ready', async () => {
    await page.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
    await visible(page.getByRole('heading', { level: 1, name: 'Harbour records' }));
    // The first batch of vectors comes back; the others wait until the test has looked at the bar
    // (a `slow:` upstream did this by time: 1.5 s a batch, most of this file's time).
    const held = upstream.hold('/v1/embeddings', 1);
    try {
      await page.getByLabel('Files to upload').setInputFiles({ name: 'harbour.md', mimeType: 'text/markdown', buffer: Buffer.from(LONG) });

      const row = page.getByRole('row', { name: /harbour\.md/ });
      const bar = await visible(row.getByRole('progressbar', { name: 'harbour.md embedding' }), 20_000);
      await visible(row.getByText('Ready'));
      await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await row.getByText(/^Embedding \d+ of \d+$/).count()).toBe(1);
      expect(await inspectAtWidths(page, 'dataset-embedding')).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
      held.release();
      // Live: the bar goes away by itself once every chunk has its vector.
      await row.getByRole('progressbar', { name: 'harbour.md embedding' }).waitFor({ state: 'detached', timeout: 60_000 });
      await visible(row.getByText('Ready'));
      expect(pageProblems(page)).toEqual([]);
    } finally {
      held.release();
    }
  });
});
