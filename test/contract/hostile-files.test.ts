/**
 * Issue 10, items 2 and 5 over real HTTP: hostile files uploaded through the API fail alone as
 * too_large, the file queued after them is indexed, and the server's own memory barely moves
 * while they are parsed (the parser process carries the cost, and is killed at its ceiling).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { closeParserWorkers } from '../../main/core/knowledge/ingest/parse.js';
import { emptyParagraphsDocx, pdfClaimingPages, wideCsv, zipBombDocx } from '../fixtures/files/hostile.js';
import { startTestHttp, tempDir } from '../support/core.js';

const MB = 1024 * 1024;
const CEILING_MB = 512;
let h: Awaited<ReturnType<typeof startTestHttp>>;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dir = tempDir();
  writeFileSync(join(dir.dir, 'parley.toml'), CONFIG_TEMPLATE.replace('parse_memory_mb = 512', `parse_memory_mb = ${CEILING_MB}`));
  h = await startTestHttp({ dataDir: dir.dir });
});
afterAll(async () => {
  await h.close();
  await closeParserWorkers();
  dir.remove();
});

describe('hostile files over HTTP', () => {
  it('each fails alone as too_large, the next file is indexed, and the server RSS grows by less than the ceiling', async () => {
    const files: [string, Buffer][] = [
      ['bomb.docx', zipBombDocx(3, true)],
      ['lying-bomb.docx', zipBombDocx(3, false)],
      ['paragraphs.docx', emptyParagraphsDocx(9_000_000)],
      ['pages.pdf', pdfClaimingPages(1_000_000)],
      ['wide.csv', wideCsv(1_000_000)],
      ['fine.txt', Buffer.from('A perfectly ordinary file about otters.')],
    ];
    const created = await h.api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'Hostile' }) });
    const { kb_id } = (await created.json()) as { kb_id: string };
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    try {
      for (const [name, bytes] of files) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)]), name);
        const res = await h.api(`/knowledge-bases/${kb_id}/artifacts`, { method: 'POST', body: form });
        expect(res.status, await res.clone().text()).toBe(201);
      }
      const settled = async () => {
        const list = (await (await h.api(`/knowledge-bases/${kb_id}/artifacts`)).json()) as { data: { key: string; status: string; error: { code: string } | null }[] };
        expect(list.data.every((a) => a.status === 'ready' || a.status === 'failed')).toBe(true);
        return list.data;
      };
      const artifacts = await vi.waitFor(settled, { timeout: 150_000, interval: 100 });
      const byKey = Object.fromEntries(artifacts.map((a) => [a.key, a]));
      for (const name of ['bomb.docx', 'lying-bomb.docx', 'paragraphs.docx', 'pages.pdf', 'wide.csv']) {
        expect(byKey[name]?.status, name).toBe('failed');
        expect(byKey[name]?.error?.code, name).toBe('too_large');
      }
      expect(byKey['fine.txt']?.status).toBe('ready');
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(CEILING_MB * MB);
  }, 180_000);
});
