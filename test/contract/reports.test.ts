import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

type Report = { id: string; status: string; content: string | null; summary_model_id: string | null; format: string };

let h: Harness;
let dataset: { id: string; kb_id: string };

/** The report once it is no longer processing (it is written in the background). */
function ready(id: string): Promise<Report> {
  return vi.waitFor(
    async () => {
      const r = (await h.json<Report>(`/reports/${id}`, 'GET')).body;
      if (r.status === 'processing') throw new Error(`report ${id} is still processing`);
      return r;
    },
    { timeout: 20_000, interval: 50 },
  );
}

beforeAll(async () => {
  h = await startChatHarness();
  dataset = (await h.json<{ id: string; kb_id: string }>('/datasets', 'POST', { name: 'Harbour <archive>' })).body;
  const form = new FormData();
  form.append('file', new Blob(['The harbour dredging schedule moves the dredger to the north quay each spring. Dredging keeps the channel deep.'], { type: 'text/plain' }), 'dredging.txt');
  form.append('file', new Blob(['%PDF-1.7 broken'], { type: 'application/pdf' }), '<b>broken.pdf');
  await h.api(`/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form });
  await h.core.runtime.ingest.idle();
});
afterAll(() => h.close());

describe('reports', () => {
  it('without a generative model: files, statuses, types, sizes, chunk counts and characteristic terms, and says why there is no summary', async () => {
    const created = await h.json<Report>('/reports', 'POST', { dataset_id: dataset.id });
    expect(created.status).toBe(201);
    const report = await ready(created.body.id);
    expect(report.status).toBe('ready');
    const md = report.content ?? '';
    expect(md).toContain('# Harbour &lt;archive&gt;');
    expect(md).toMatch(/Files: 2/);
    expect(md).toMatch(/ready: 1, failed: 1|failed: 1, ready: 1/);
    expect(md).toMatch(/\| dredging\.txt \| text\/plain \| \d+ B \| ready \| 1 \|/);
    expect(md).toMatch(/parse_error/);
    expect(md).toMatch(/dredging \(2\)|dredger/);
    expect(md).toMatch(/No generative model is registered/);
    expect(report.summary_model_id).toBeNull();
  });

  it('with a generative model: a written summary, and HTML that escapes what users named', async () => {
    const writer = await h.addModel('Writer', 'fixed:A collection about harbour dredging.');
    const created = await h.json<Report>('/reports', 'POST', { dataset_id: dataset.id, format: 'html' });
    const report = await ready(created.body.id);
    expect(report.summary_model_id).toBe(writer);
    expect(report.content).toContain('A collection about harbour dredging.');
    expect(report.content).toMatch(/^<!doctype html>/);
    expect(report.content).not.toContain('<b>broken');
    expect(report.content).toContain('&lt;b&gt;broken.pdf');
  });

  it('refuses an unknown dataset', async () => {
    expect((await h.json('/reports', 'POST', { dataset_id: 'ds_nope' })).status).toBe(404);
    expect((await h.json('/reports/rpt_nope', 'GET')).status).toBe(404);
  });
});
