/**
 * 10,000 small files uploaded at once to served mode (multipart, 100 files a request) until every
 * one is ready, while a client reads the dataset over and over: how long the whole queue takes,
 * and how long the API takes to answer while it runs (the UI's requests wait as long). Issue #12:
 * "ingesting 10,000 small files stays smooth: progress and the UI never freeze".
 * Run: node --import tsx test/bench/small-files.ts (after npm run build)
 */
import { pathToFileURL } from 'node:url';
import { startServed } from '../support/served.js';
import { percentile } from './stats.js';

const FILES = Number(process.env.PARLEY_BENCH_SMALL_FILES ?? 10_000);
const PER_REQUEST = 100;

function note(i: number): string {
  return `# Note ${i}\n\nLedger entry ${i}: the harbour dredger worked the north channel on day ${i % 365}, with ${i % 17} tons of silt moved.\n`;
}

export async function runSmallFilesBench(): Promise<Array<Record<string, string>>> {
  const served = await startServed();
  try {
    const ds = (await (await served.api('/datasets', { body: { name: 'Small files' } })).json()) as { id: string; kb_id: string };
    const latencies: number[] = [];
    let probing = true;
    // The client a person's UI is: one request at a time, as soon as the last one answered.
    const probe = (async () => {
      while (probing) {
        const t0 = performance.now();
        const res = await served.api(`/datasets/${ds.id}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    for (let first = 0; first < FILES; first += PER_REQUEST) {
      const form = new FormData();
      for (let i = first; i < Math.min(FILES, first + PER_REQUEST); i++) form.append('file', new Blob([note(i)], { type: 'text/markdown' }), `note-${i}.md`);
      const res = await fetch(`${served.url}/api/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${served.apiKey}` } });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    }
    const uploaded = performance.now() - started;
    for (;;) {
      const page = (await (await served.api(`/knowledge-bases/${ds.kb_id}/artifacts?status=processing&limit=1`)).json()) as { data: unknown[] };
      if (page.data.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const total = performance.now() - started;
    probing = false;
    await probe;
    const failed = (await (await served.api(`/knowledge-bases/${ds.kb_id}/artifacts?status=failed&limit=1`)).json()) as { data: unknown[] };
    if (failed.data.length > 0) throw new Error(`a small file failed: ${JSON.stringify(failed.data[0])}`);
    const sorted = [...latencies].sort((a, b) => a - b);
    return [
      {
        files: String(FILES),
        uploaded_s: (uploaded / 1000).toFixed(1),
        all_ready_s: (total / 1000).toFixed(1),
        files_per_s: (FILES / (total / 1000)).toFixed(0),
        dataset_reads: String(latencies.length),
        read_p50_ms: percentile(sorted, 50).toFixed(1),
        read_p99_ms: percentile(sorted, 99).toFixed(1),
        read_max_ms: (sorted[sorted.length - 1] ?? 0).toFixed(1),
      },
    ];
  } finally {
    await served.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSmallFilesBench().then(
    (rows) => {
      for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
