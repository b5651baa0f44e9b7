/**
 * Ingestion end to end, as a user sees it: a file uploaded to served mode (multipart/form-data)
 * until its artifact is `ready` — storing, type detection, parsing in the worker, chunking and
 * indexing included; the text has a natural vocabulary (natural-text.ts), as FTS5's cost depends on it.
 * Targets: ≥ 40 MB/s for plain text, ≥ 5 MB/s for PDF. Best of three runs each; CPU time of the
 * server and its parser processes as well (MB per CPU-second does not depend on the machine's load).
 * With `PARLEY_BENCH_POSTGRES_URL` (./postgres.ts), plain text on PostgreSQL too.
 * Run: node --import tsx test/bench/pipeline.ts (after npm run build)
 */
import { pathToFileURL } from 'node:url';
import { startServed, type Served } from '../support/served.js';
import { benchPdf } from './ingest.js';
import { naturalText } from './natural-text.js';
import { createDatabase, dropDatabase, serverCpu, withBenchPostgres, type BenchPostgres } from './postgres.js';
import { treeCpuSeconds } from './process-cpu.js';

const MB = 1024 * 1024;
const RUNS = 3;

/** Uploads `body` as `name` and waits until its artifact is ready; answers the seconds it took. */
async function uploadUntilReady(served: Served, kbId: string, name: string, body: Blob): Promise<number> {
  const form = new FormData();
  form.append('file', body, name);
  const started = performance.now();
  const res = await fetch(`${served.url}/api/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${served.apiKey}` } });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  for (;;) {
    const a = (await (await served.api(`/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(name)}`)).json()) as { status: string; error: unknown };
    if (a.status === 'ready') break;
    if (a.status === 'failed') throw new Error(`failed: ${JSON.stringify(a.error)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return (performance.now() - started) / 1000;
}

export type PipelineRow = Record<string, string> & {
  file: string;
  mb: string;
  seconds: string;
  mb_per_s: string;
  /** Every run's seconds (the figure is the best; the machine is shared). */
  runs_s: string;
  /** CPU seconds of the server and its parser processes for the best run, and MB per CPU-second. */
  cpu_s: string;
  mb_per_cpu_s: string;
};

const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

interface BenchFile {
  file: string;
  mb: number;
  make: (run: number) => Promise<Blob>;
}

/** Each file uploaded RUNS times to a served mode started with `env`: one row each; `otherCpu`: CPU seconds of a database server, counted too. */
async function uploadRows(files: readonly BenchFile[], env: Record<string, string> = {}, otherCpu: () => number | null = () => 0): Promise<PipelineRow[]> {
  const served = await startServed({ env });
  try {
    const ds = (await (await served.api('/datasets', { body: { name: 'Bench' } })).json()) as { kb_id: string };
    const rows: PipelineRow[] = [];
    for (const { file, mb, make } of files) {
      const runs: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        // Each run's bytes differ (another text, a comment after the PDF's end), so none is a duplicate upload.
        const body = await make(run);
        const cpuBefore = sum(treeCpuSeconds(served.pid), otherCpu());
        runs.push(await uploadUntilReady(served, ds.kb_id, `bench-${run}-${file.replace(/\W+/g, '-')}${file.startsWith('pdf') ? '.pdf' : '.txt'}`, body));
        const cpuAfter = sum(treeCpuSeconds(served.pid), otherCpu());
        cpu.push(cpuBefore === null || cpuAfter === null ? Number.NaN : cpuAfter - cpuBefore);
      }
      const seconds = Math.min(...runs);
      // CPU of the least costly run: the first may include starting a parser process.
      const cpuSeconds = Math.min(...cpu);
      rows.push({
        file,
        mb: mb.toFixed(1),
        seconds: seconds.toFixed(2),
        mb_per_s: (mb / seconds).toFixed(1),
        runs_s: runs.map((r) => r.toFixed(2)).join(' '),
        cpu_s: Number.isNaN(cpuSeconds) ? 'n/a' : cpuSeconds.toFixed(2),
        mb_per_cpu_s: Number.isNaN(cpuSeconds) ? 'n/a' : (mb / cpuSeconds).toFixed(1),
      });
    }
    return rows;
  } finally {
    await served.stop();
  }
}

/**
 * Plain text and the PDF on SQLite; with a PostgreSQL server (./postgres.ts), plain text again on a
 * fresh database of it (`PARLEY_DATABASE_URL`), dropped after. Its CPU columns count the
 * server's processes too when it runs on this machine (serverCpu), else they say n/a.
 */
export async function runPipelineBench(postgres?: BenchPostgres): Promise<PipelineRow[]> {
  const plain: BenchFile = { file: 'plain text', mb: 20, make: async (run) => new Blob([naturalText(20 * MB, 20 + run)], { type: 'text/plain' }) };
  const pdf = await benchPdf(800);
  const rows = await uploadRows([plain, { file: 'pdf (800 pages)', mb: pdf.length / MB, make: async (run) => new Blob([new Uint8Array(pdf), `\n% run ${run}\n`], { type: 'application/pdf' }) }]);
  if (postgres) {
    const database = createDatabase(postgres.url);
    try {
      const onPostgres = await uploadRows([plain], { PARLEY_DATABASE_URL: database.url }, serverCpu(postgres.url) ?? (() => null));
      rows.push(...onPostgres.map((row) => ({ ...row, file: `${row.file}, on PostgreSQL` })));
    } finally {
      dropDatabase(postgres.url, database.name);
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  withBenchPostgres((postgres) => runPipelineBench(postgres)).then(
    (rows) => {
      for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
