import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makePdf } from '../fixtures/files/index.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { person, secondOrganization } from '../support/people.js';

type Hit = { artifact_id: string; artifact_key: string; snippet: string; location: { start: number; end: number; page?: number; page_end?: number; row_start?: number; row_end?: number; section?: string } };
type Source = {
  artifact_key: string;
  kind: string;
  location: Record<string, unknown>;
  total_pages?: number;
  total_rows?: number;
  segments: { text: string; highlight: boolean }[];
  table: { columns: string[]; rows: { number: number; cells: string[]; highlight: boolean }[] } | null;
  truncated: boolean;
};

/** Filler that keeps each section its own chunk (a chunk holds about 1,200 characters). */
const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} about ${topic} says little that matters here, and it says it at some length so that it fills the page.`).join(' ');

const HANDBOOK = [
  '# Handbook',
  '',
  `Welcome to the company. ${filler('the welcome', 8)}`,
  '',
  '## Allowances',
  '',
  'Every employee receives a one-time home-office allowance of EUR 1,200.',
  '',
  `Receipts are kept for three years. ${filler('receipts', 6)}`,
  '',
  '### Travel',
  '',
  'Train travel is booked in second class.',
  '',
  '## Holidays',
  '',
  `There are thirty days of paid holiday. ${filler('holidays', 8)}`,
  '',
].join('\n');

const CSV = ['city,country,population', ...Array.from({ length: 30 }, (_, i) => (i === 14 ? 'Lima,Peru,10000000' : `Town ${i + 1},Nowhere,${1000 + i}`))].join('\n');

/** Paragraphs of a PDF page, one line each. */
const lines = (topic: string, n: number) => Array.from({ length: n }, (_, i) => [`Line ${i + 1} on ${topic} carries words enough to keep snippets short.`]);

let h: Harness;
let dataset: { id: string; kb_id: string };

async function upload(files: { key: string; bytes: Buffer | string; type: string }[]): Promise<void> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([typeof f.bytes === 'string' ? f.bytes : new Uint8Array(f.bytes)], { type: f.type }), f.key);
  const res = await h.api(`/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  for (const f of files) {
    await vi.waitFor(
      async () => {
        const { status } = (await h.json<{ status: string }>(`/knowledge-bases/${dataset.kb_id}/artifacts/${encodeURIComponent(f.key)}`, 'GET')).body;
        if (status !== 'ready') throw new Error(`${f.key} is ${status}`);
      },
      { timeout: 30_000, interval: 50 },
    );
  }
}

async function find(query: string, key: string): Promise<Hit> {
  const res = await h.json<{ data: Hit[] }>('/search', 'POST', { query, dataset_ids: [dataset.id] });
  const hit = res.body.data.find((r) => r.artifact_key === key);
  if (!hit) throw new Error(`no passage of ${key} for ${query}`);
  return hit;
}

const sourceOf = (hit: Hit, token?: string) =>
  h.json<Source>(`/artifacts/${hit.artifact_id}/source?start=${hit.location.start}&end=${hit.location.end}&focus=${encodeURIComponent(hit.snippet)}`, 'GET', undefined, token);
const marked = (s: Source) => s.segments.filter((x) => x.highlight).map((x) => x.text).join('');
const whole = (s: Source) => s.segments.map((x) => x.text).join('');

beforeAll(async () => {
  h = await startChatHarness();
  dataset = (await h.json<{ id: string; kb_id: string }>('/datasets', 'POST', { name: 'Sources' })).body;
  const pdf = await makePdf([
    [['Quarterly report for the northern region.'], ...lines('revenue', 6)],
    [['Page two talks about costs.'], ...lines('spending', 4), ['Costs fell by four percent because of the new warehouse.'], ['Staffing stayed the same.'], ...lines('staff', 4)],
    [['Page three is the outlook.'], ...lines('the outlook', 6), ['Remote staff who work from home receive, after their probation period ends,', 'an equipment allowance of EUR 1,200 per year.']],
  ]);
  await upload([
    { key: 'handbook.md', bytes: HANDBOOK, type: 'text/markdown' },
    { key: 'cities.csv', bytes: CSV, type: 'text/csv' },
    { key: 'report.pdf', bytes: pdf, type: 'application/pdf' },
    { key: 'notes.txt', bytes: 'Plain notes without headings. The boiler is serviced every autumn.', type: 'text/plain' },
  ]);
}, 60_000);
afterAll(() => h.close());

describe('GET /artifacts/{artifact_id}/source', () => {
  it('shows a PDF passage on its whole pages, the passage marked, with the pages its citation names and the page count', async () => {
    const hit = await find('warehouse costs', 'report.pdf');
    const res = await sourceOf(hit);
    expect(res.status).toBe(200);
    // The passage runs from page one into page two: the pages its citation names ("pages 1–2"), no other.
    expect(hit.location).toMatchObject({ page: 1, page_end: 2 });
    expect(res.body).toMatchObject({ artifact_key: 'report.pdf', kind: 'pages', location: { page: 1, page_end: 2 }, total_pages: 3, table: null, truncated: false });
    const text = whole(res.body);
    expect(text).toContain('Page two talks about costs.');
    expect(text).toContain('Staffing stayed the same.');
    expect(text).not.toContain('Page three');
    expect(marked(res.body)).toContain('warehouse');
  });

  it('marks the whole sentence the search snippet cut short, the amount included', async () => {
    const hit = await find('equipment allowance for remote staff working from home', 'report.pdf');
    expect(hit.snippet).not.toContain('EUR 1,200');
    const res = await sourceOf(hit);
    expect(res.status).toBe(200);
    expect(marked(res.body)).toContain('an equipment allowance of EUR 1,200 per year.');
    expect(res.body.location).toEqual({ page: hit.location.page, ...(hit.location.page_end === undefined ? {} : { page_end: hit.location.page_end }) });
  });

  it('shows a CSV passage as the rows around it under the header, its rows marked', async () => {
    const hit = await find('Lima Peru', 'cities.csv');
    const res = await sourceOf(hit);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('rows');
    expect(res.body.total_rows).toBe(30);
    expect(res.body.table?.columns).toEqual(['city', 'country', 'population']);
    const rows = res.body.table?.rows ?? [];
    const lima = rows.find((r) => r.cells[0] === 'Lima');
    expect(lima).toMatchObject({ number: 15, cells: ['Lima', 'Peru', '10000000'], highlight: true });
    // The passage's rows are marked, and a few rows either side are shown for context.
    const first = rows.find((r) => r.highlight)?.number ?? 0;
    const last = rows.filter((r) => r.highlight).at(-1)?.number ?? 0;
    expect(res.body.location).toEqual({ row_start: first, row_end: last });
    // The rows marked are the rows the citation names (its heading says "rows 12–18"), not a narrower snippet's.
    expect(res.body.location).toEqual({ row_start: hit.location.row_start, row_end: hit.location.row_end });
    expect(rows.filter((r) => r.highlight)).toHaveLength(last - first + 1);
    expect(rows[0]?.number).toBe(Math.max(1, first - 3));
    expect(rows.at(-1)?.number).toBe(Math.min(30, last + 3));
  });

  it('shows a Markdown passage within its section, headings kept, the passage marked', async () => {
    const hit = await find('home-office allowance', 'handbook.md');
    const res = await sourceOf(hit);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('section');
    expect(String(res.body.location.section)).toMatch(/Allowances$/);
    const text = whole(res.body);
    expect(text).toContain('EUR 1,200');
    expect(text).not.toContain('thirty days');
    expect(text).not.toContain('Welcome to the company');
    expect(marked(res.body)).toContain('EUR 1,200');
  });

  it('shows a passage of a file without pages or sections in the text around it', async () => {
    const hit = await find('boiler serviced', 'notes.txt');
    const res = await sourceOf(hit);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('text');
    expect(marked(res.body)).toContain('boiler');
  });

  it('is read by any member of the organization, and not found for another organization', async () => {
    const hit = await find('home-office allowance', 'handbook.md');
    const member = await person(h.api, 'member', 'Reader');
    expect((await sourceOf(hit, member.key)).status).toBe(200);
    const stranger = secondOrganization(h.core);
    const res = await sourceOf(hit, stranger.key);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('refuses offsets the wrong way round, unknown files and offsets past the end, clearly', async () => {
    const hit = await find('home-office allowance', 'handbook.md');
    const backwards = await h.json<{ code: string }>(`/artifacts/${hit.artifact_id}/source?start=20&end=10`, 'GET');
    expect(backwards.status).toBe(400);
    expect(backwards.body.code).toBe('invalid_argument');
    expect((await h.json<{ code: string }>('/artifacts/art_nothere/source?start=0&end=10', 'GET')).status).toBe(404);
    const past = await h.json<{ code: string }>(`/artifacts/${hit.artifact_id}/source?start=900000&end=900010`, 'GET');
    expect(past.status).toBe(404);
    expect(past.body.code).toBe('not_found');
  });
});
