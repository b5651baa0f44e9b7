/**
 * Watched folders at scale (issue 30), against served mode as users run it (its own process):
 * - a folder of 10,000 small Markdown files followed: the time until every file is ready, while a
 *   client reads the dataset page over and over (the dataset, then its newest files, one request at
 *   a time as a UI does): the reads' p50/p99 show whether the API stays responsive meanwhile;
 * - then files edited one after another, as in an editor: the time from the write's end (the change
 *   settling) to a keyword search finding the new text (p50, p95). It includes the watcher's settle
 *   time (`awaitWriteFinish`, 500 ms), which the issue's "within 5 s of the change settling" counts.
 * Alone: `PARLEY_BENCH_ONLY=folders npm run bench`, or `node --import tsx test/bench/folders.ts`
 * after `npm run build`. `PARLEY_BENCH_FOLDER_FILES` and `PARLEY_BENCH_FOLDER_EDITS` change the sizes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServed, type Served } from '../support/served.js';
import { percentile } from './stats.js';

const FILES = Number(process.env.PARLEY_BENCH_FOLDER_FILES ?? 10_000);
const EDITS = Number(process.env.PARLEY_BENCH_FOLDER_EDITS ?? 30);
const PER_DIR = 100;
/** A bench that stalls ends with an error instead of hanging (the guard reports it). */
const SCAN_LIMIT_MS = 15 * 60_000;
const EDIT_LIMIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function note(i: number): string {
  return `# Note ${i}\n\nLedger entry ${i}: the harbour dredger worked the north channel on day ${i % 365}, with ${i % 17} tons of silt moved.\n`;
}

const pathOf = (root: string, i: number) => join(root, `d${Math.floor(i / PER_DIR)}`, `note-${i}.md`);

/** A word no file holds before edit `n`: searching it finds the new text only. */
const marker = (n: number) => `quillwort${n}x${Date.now().toString(36)}`;

interface FolderState {
  status: string;
  files: { seen: number; ready: number; failed: number; pending: number; skipped: number };
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The served process's peak resident memory (Linux), to show the scan's memory stays bounded. */
function peakRssMb(pid: number): string {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? (Number(kb) / 1024).toFixed(0) : '';
  } catch {
    return '';
  }
}

const ms = (sorted: number[], p: number) => percentile(sorted, p).toFixed(1);

export async function runFoldersBench(): Promise<{ scan: Array<Record<string, string>>; edits: Array<Record<string, string>> }> {
  const root = mkdtempSync(join(tmpdir(), 'parley-bench-folder-'));
  let served: Served | null = null;
  try {
    for (let d = 0; d * PER_DIR < FILES; d++) mkdirSync(join(root, `d${d}`));
    for (let i = 0; i < FILES; i++) writeFileSync(pathOf(root, i), note(i));
    served = await startServed();
    const api = served.api.bind(served);
    const ds = await json<{ id: string; kb_id: string }>(await api('/datasets', { body: { name: 'Followed folder' } }));

    // The client a person's UI is: one request at a time, as soon as the last one answered.
    const reads: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        for (const path of [`/datasets/${ds.id}`, `/knowledge-bases/${ds.kb_id}/artifacts?limit=50&order=newest`]) {
          const t0 = performance.now();
          await (await api(path)).arrayBuffer();
          reads.push(performance.now() - t0);
        }
        await sleep(20);
      }
    })();

    const started = performance.now();
    const folder = await json<{ id: string }>(await api(`/datasets/${ds.id}/folders`, { body: { path: root } }));
    let state: FolderState;
    for (;;) {
      state = await json<FolderState>(await api(`/datasets/${ds.id}/folders/${folder.id}`));
      if (state.status === 'error') throw new Error(`the folder is in error: ${JSON.stringify(state)}`);
      if (state.status === 'watching' && state.files.seen === FILES && state.files.pending === 0) break;
      if (performance.now() - started > SCAN_LIMIT_MS) throw new Error(`not ready after ${SCAN_LIMIT_MS / 60_000} min: ${JSON.stringify(state)}`);
      await sleep(100);
    }
    const scanMs = performance.now() - started;
    probing = false;
    await probe;
    if (state.files.failed > 0) throw new Error(`${state.files.failed} file(s) failed`);
    const sortedReads = [...reads].sort((a, b) => a - b);
    const scan = [
      {
        files: String(FILES),
        all_ready_s: (scanMs / 1000).toFixed(1),
        files_per_s: (FILES / (scanMs / 1000)).toFixed(0),
        dataset_reads: String(reads.length),
        read_p50_ms: ms(sortedReads, 50),
        read_p99_ms: ms(sortedReads, 99),
        read_max_ms: (sortedReads[sortedReads.length - 1] ?? 0).toFixed(1),
        served_peak_rss_mb: peakRssMb(served.pid),
      },
    ];

    // Edits one after another, each to another file, as a person saving in an editor.
    const latencies: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const i = Math.floor(((n + 0.5) * FILES) / EDITS);
      const word = marker(n);
      writeFileSync(pathOf(root, i), `${note(i)}\nEdited: ${word} noted at the quay.\n`);
      const t0 = performance.now();
      for (;;) {
        const found = await json<{ data: unknown[] }>(await api('/search', { body: { query: word, dataset_ids: [ds.id], mode: 'keyword' } }));
        if (found.data.length > 0) break;
        if (performance.now() - t0 > EDIT_LIMIT_MS) throw new Error(`edit ${n} not searchable after ${EDIT_LIMIT_MS / 1000} s`);
        await sleep(25);
      }
      latencies.push(performance.now() - t0);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const edits = [
      {
        edits: String(EDITS),
        folder_files: String(FILES),
        searchable_p50_ms: ms(sorted, 50),
        searchable_p95_ms: ms(sorted, 95),
        searchable_max_ms: (sorted[sorted.length - 1] ?? 0).toFixed(1),
      },
    ];
    return { scan, edits };
  } finally {
    await served?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFoldersBench().then(
    ({ scan, edits }) => {
      for (const row of [...scan, ...edits]) process.stdout.write(`${JSON.stringify(row)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
