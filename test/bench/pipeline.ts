/**
 * Ingestion end to end, as a user sees it: a file uploaded to served mode (multipart/form-data)
 * until its artifact is `ready` — storing, type detection, parsing in the worker, chunking and
 * indexing included. Target: ≥ 40 MB/s for plain text.
 * Run: node --import tsx test/bench/pipeline.ts (after npm run build)
 */
import { pathToFileURL } from 'node:url';
import { startServed } from '../support/served.js';

const WORDS = 'tide harbour keeper lamp channel dredger quay north south spring winter ledger anchor rope sail mast hull'.split(' ');

function text(bytes: number, seed: number): string {
  let out = '';
  let x = seed;
  while (out.length < bytes) {
    let sentence = '';
    for (let i = 0; i < 14; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      sentence += `${WORDS[x % WORDS.length]} `;
    }
    out += `${sentence.trim()}.${x % 5 === 0 ? '\n\n' : ' '}`;
  }
  return out;
}

export async function runPipelineBench(): Promise<Array<{ file: string; mb: string; seconds: string; mb_per_s: string }>> {
  const served = await startServed();
  try {
    const ds = (await (await served.api('/datasets', { body: { name: 'Bench' } })).json()) as { kb_id: string };
    const rows = [];
    for (const mb of [20]) {
      const body = text(mb * 1024 * 1024, mb);
      const form = new FormData();
      form.append('file', new Blob([body], { type: 'text/plain' }), `bench-${mb}.txt`);
      const started = performance.now();
      const res = await fetch(`${served.url}/api/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${served.apiKey}` } });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      for (;;) {
        const a = (await (await served.api(`/knowledge-bases/${ds.kb_id}/artifacts/bench-${mb}.txt`)).json()) as { status: string; error: unknown };
        if (a.status === 'ready') break;
        if (a.status === 'failed') throw new Error(`failed: ${JSON.stringify(a.error)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (performance.now() - started) / 1000;
      rows.push({ file: 'plain text', mb: String(mb), seconds: seconds.toFixed(2), mb_per_s: (mb / seconds).toFixed(1) });
    }
    return rows;
  } finally {
    await served.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runPipelineBench().then(
    (rows) => {
      for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
