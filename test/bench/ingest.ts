/**
 * Ingestion benchmark: parse + chunk in the parser processes, as the ingest queue runs them
 * (`streamChunks`: the process reads the stored file, chunks it, streams the chunks back), on generated files —
 * plain text (~20 MB), Markdown, CSV and JSON (~10 MB each), and a multi-page PDF made with pdf-lib.
 * Throughput is in MB of input per second, the best of three runs after a warm-up; peak RSS is the
 * process's (the parser process is separate: see the pipeline bench) after each format.
 *
 * It measures and reports; it does not assert the targets (plain text upload → ready ≥ 40 MB/s, PDF ≥ 5 MB/s).
 * Run: node --import tsx test/bench/ingest.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chunkDocument } from '../../main/core/knowledge/ingest/chunk.js';
import { closeParserWorkers, parseDocument, streamChunks } from '../../main/core/knowledge/ingest/parse.js';
import { makePdf } from '../fixtures/files/index.js';
import { prng } from './stats.js';

export interface IngestBenchResult {
  name: string;
  mb: number;
  mb_per_s: number;
  /** Parse + chunk, best of the runs. */
  ms: number;
  chunks: number;
  /** Parser processes that read the file (a long PDF is split across them). */
  processes: number;
  peak_rss_mb: number;
}

const MB = 1024 * 1024;
const RUNS = 3;


const WORDS = 'the of and to in is that for it as with was on be by this are from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');

function sentence(rand: () => number): string {
  const n = 6 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)] ?? 'word');
  const s = words.join(' ');
  return `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}.`;
}

function paragraph(rand: () => number): string {
  const n = 2 + Math.floor(rand() * 8);
  return Array.from({ length: n }, () => sentence(rand)).join(' ');
}

function plainText(bytes: number): Buffer {
  const rand = prng(1);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const p = paragraph(rand);
    parts.push(p);
    size += p.length + 2;
  }
  return Buffer.from(parts.join('\n\n'));
}

function markdown(bytes: number): Buffer {
  const rand = prng(2);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = i % 12 === 0 ? `# Chapter ${i / 12}` : i % 4 === 0 ? `## Section ${i}` : i % 7 === 0 ? `- ${sentence(rand)}\n- ${sentence(rand)}\n- ${sentence(rand)}` : paragraph(rand);
    parts.push(p);
    size += p.length + 2;
  }
  return Buffer.from(parts.join('\n\n'));
}

function csv(bytes: number): Buffer {
  const rand = prng(3);
  const lines = ['id,name,city,amount,note'];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `${i},name ${i},city ${Math.floor(rand() * 500)},${(rand() * 1000).toFixed(2)},"${sentence(rand)}"`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n'));
}

function json(bytes: number): Buffer {
  const rand = prng(4);
  const items: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const item = { id: i, title: sentence(rand), tags: [WORDS[i % WORDS.length], WORDS[(i * 7) % WORDS.length]], price: Math.round(rand() * 10000) / 100, body: paragraph(rand) };
    items.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return Buffer.from(JSON.stringify({ items, meta: { count: items.length } }));
}

/** The bench PDF: `pages` pages of six paragraphs of seven lines (~2 KB of compressed text a page). */
export async function benchPdf(pages: number): Promise<Buffer> {
  const rand = prng(5);
  const content: string[][][] = [];
  for (let p = 0; p < pages; p++) {
    const paragraphs: string[][] = [];
    for (let k = 0; k < 6; k++) paragraphs.push(Array.from({ length: 7 }, () => sentence(rand).slice(0, 90)));
    content.push(paragraphs);
  }
  return makePdf(content, 'Benchmark PDF');
}

async function measure(name: string, bytes: Buffer, mime: string): Promise<IngestBenchResult> {
  const limits = { maxBytes: 1024 * MB, timeoutMs: 600_000 };
  // As the ingest queue does: the parser processes read the stored file, chunk it and stream the
  // chunks back (a long PDF split across the processes); only indexing is left out.
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-ingest-'));
  const path = join(dir, 'file');
  writeFileSync(path, bytes);
  let best = { total: Number.POSITIVE_INFINITY, chunks: 0, parts: 1 };
  try {
    for (let run = 0; run < RUNS; run++) {
      let chunks = 0;
      const t0 = performance.now();
      const { parts } = await streamChunks({ path, size: bytes.length, mime, filename: name }, limits, (batch) => (chunks += batch.length));
      const total = performance.now() - t0;
      if (total < best.total) best = { total, chunks, parts };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const mb = bytes.length / MB;
  return {
    name,
    mb: Math.round(mb * 10) / 10,
    mb_per_s: Math.round((mb / (best.total / 1000)) * 10) / 10,
    ms: Math.round(best.total),
    chunks: best.chunks,
    processes: best.parts,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** A PDF read whole by one process (`parseDocument` is never split), then chunked: what splitting is measured against. */
async function measureOneProcess(name: string, bytes: Buffer): Promise<IngestBenchResult> {
  const limits = { maxBytes: 1024 * MB, timeoutMs: 600_000 };
  let best = { total: Number.POSITIVE_INFINITY, chunks: 0 };
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const chunks = chunkDocument(await parseDocument({ bytes, mime: 'application/pdf', filename: name }, limits)).length;
    const total = performance.now() - t0;
    if (total < best.total) best = { total, chunks };
  }
  const mb = bytes.length / MB;
  return { name, mb: Math.round(mb * 10) / 10, mb_per_s: Math.round((mb / (best.total / 1000)) * 10) / 10, ms: Math.round(best.total), chunks: best.chunks, processes: 1, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

/**
 * Measures the built worker (dist/main/parse-worker.js, as the app runs it) when `npm run build`
 * made one; otherwise the worker from source through tsx, whose loader costs memory and time.
 */
function useBuiltWorker(): string {
  const built = fileURLToPath(new URL('../../dist/main/parse-worker.js', import.meta.url));
  if (!process.env.PARLEY_PARSE_WORKER && existsSync(built)) process.env.PARLEY_PARSE_WORKER = built;
  return process.env.PARLEY_PARSE_WORKER ? 'built' : 'source (tsx)';
}

export async function runIngestBench(): Promise<IngestBenchResult[]> {
  const worker = useBuiltWorker();
  try {
    // Warm-up: start the worker and load every parser once.
    await parseDocument({ bytes: Buffer.from('warm up'), mime: 'text/plain', filename: 'w' }, { maxBytes: MB, timeoutMs: 120_000 });
    const results: IngestBenchResult[] = [];
    process.stdout.write(`ingest bench: ${worker} parser worker\n`);
    results.push(await measure('plain text', plainText(20 * MB), 'text/plain'));
    results.push(await measure('markdown', markdown(10 * MB), 'text/markdown'));
    results.push(await measure('csv', csv(10 * MB), 'text/csv'));
    results.push(await measure('json', json(10 * MB), 'application/json'));
    const pdf = await benchPdf(800);
    results.push(await measureOneProcess('pdf (800 pages), one process', pdf));
    results.push(await measure('pdf (800 pages)', pdf, 'application/pdf'));
    return results;
  } finally {
    await closeParserWorkers();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runIngestBench();
  const { printRows } = await import('./stats.js');
  printRows('Ingestion: parse + chunk in the parser processes', results.map((r) => ({ format: r.name, mb: r.mb, mb_per_s: r.mb_per_s, ms: r.ms, chunks: r.chunks, processes: r.processes, peak_rss_mb: r.peak_rss_mb })));
}
