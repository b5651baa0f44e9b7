/**
 * Start-up of served mode on a large database: a data directory with `CHUNKS` chunks (1,000
 * artifacts in 10 datasets, FTS5-indexed as ingestion leaves them) is prepared once, then
 * `node dist/main/serve.js` is spawned on it and timed until its first `/api/health` answers 200.
 * An empty data directory is timed the same way, for what Node and the modules cost by themselves.
 * Target: ready ≤ 500 ms on a 1M-chunk database, judged on the served process's CPU time when
 * health first answers (/proc): on a shared machine the wall time is mostly waiting for a core.
 * Medians of `RUNS` after a warm-up (the file cache, and the code cache the first start writes).
 * Run: node --import tsx test/bench/startup.ts (after npm run build)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bootCore } from '../../main/boot.js';
import { sqliteOf } from '../support/core.js';
import type { Chunk } from '../../main/core/knowledge/ingest/types.js';
import { prng } from './stats.js';

const SERVE = fileURLToPath(new URL('../../dist/main/serve.js', import.meta.url));
const RUNS = 5;
/** Clock ticks per second of /proc times (USER_HZ). */
const TICKS_PER_SECOND = 100;
const WORDS = 'tide harbour keeper lamp channel dredger quay north south spring winter ledger anchor rope sail mast hull beacon pier buoy'.split(' ');

export interface StartupRow {
  database: string;
  chunks: number;
  /** CPU of the served process (user + system) when /api/health first answered 200, median. */
  cpu_ms: number;
  /** Spawn → first 200, median: the machine's load shows here. */
  ready_ms: number;
}

/** A data directory holding `total` chunks, built through the real repositories. */
function prepare(total: number, log: (line: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-startup-'));
  const core = bootCore({ dataDir: dir, appVersion: 'bench', adminApiKey: 'pk_BenchStartupKey0123456789abcdef', watchConfigFile: false });
  try {
    if (total === 0) return dir;
    const { repos } = core;
    const db = sqliteOf(core);
    const org = db.prepare<[], { id: string }>('SELECT id FROM organizations LIMIT 1').get()?.id;
    if (!org) throw new Error('no organization');
    const now = new Date().toISOString();
    const rand = prng(7);
    const artifacts = 1_000;
    const perArtifact = Math.ceil(total / artifacts);
    const started = performance.now();
    for (let d = 0; d < 10; d++) {
      db.prepare('INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(`ds_start${d}`, org, `Start ${d}`, now, now);
      db.prepare('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES (?, ?, ?)').run(`kb_start${d}`, `ds_start${d}`, now);
    }
    const artifact = db.prepare(
      `INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, chunk_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, 0, 0, 'ready', ?, ?, ?)`,
    );
    let written = 0;
    for (let a = 0; a < artifacts && written < total; a++) {
      const count = Math.min(perArtifact, total - written);
      const chunks: Chunk[] = [];
      for (let c = 0; c < count; c++) {
        let text = '';
        for (let w = 0; w < 12; w++) text += `${WORDS[Math.floor(rand() * WORDS.length)] ?? 'tide'} `;
        chunks.push({ ord: c, text, location: { start: 0, end: text.length } });
      }
      repos.transaction(() => {
        artifact.run(`art_start${a}`, `kb_start${a % 10}`, `doc-${a}.txt`, `doc-${a}.txt`, count, now, now);
        repos.chunks.replaceForArtifact(`art_start${a}`, undefined, chunks);
      });
      written += count;
      if (a % 100 === 99) log(`  startup bench: ${written.toLocaleString('en')} chunks (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    repos.chunks.refreshTermStats();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return dir;
  } finally {
    core.close();
  }
}

/** CPU ms (user + system, /proc) that process `pid` has used so far. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (in parentheses, may hold spaces): utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return (((fields[11] ?? 0) + (fields[12] ?? 0)) * 1000) / TICKS_PER_SECOND;
}

/** Spawns served mode on `dir`; resolves with the ms until /api/health first answers 200 and the CPU it took. */
async function timeReady(dir: string): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVE, '--port', '0', '--data-dir', dir, '--no-sign-in-link'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        const match = /Parley listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${out}`)));
    });
    for (;;) {
      const res = await fetch(`${url}/api/health`).catch(() => null);
      if (res?.status === 200) return { wall: performance.now() - started, cpu: processCpuMs(child.pid ?? -1) };
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN);
}

async function measure(dir: string): Promise<{ cpu_ms: number; ready_ms: number }> {
  await timeReady(dir);
  const runs: Array<{ wall: number; cpu: number }> = [];
  for (let run = 0; run < RUNS; run++) runs.push(await timeReady(dir));
  return { cpu_ms: median(runs.map((r) => r.cpu)), ready_ms: median(runs.map((r) => r.wall)) };
}

export async function runStartupBench(options: { chunks?: number; log?: (line: string) => void } = {}): Promise<StartupRow[]> {
  const total = options.chunks ?? 1_000_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const empty = prepare(0, log);
  log(`startup bench: building ${total.toLocaleString('en')} chunks…`);
  const large = prepare(total, log);
  try {
    return [
      { database: 'empty', chunks: 0, ...(await measure(empty)) },
      { database: `${(total / 1e6).toFixed(total < 1e6 ? 1 : 0)}M chunks`, chunks: total, ...(await measure(large)) },
    ];
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(large, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chunks = process.env.STARTUP_CHUNKS ? Number(process.env.STARTUP_CHUNKS) : undefined;
  const rows = await runStartupBench(chunks ? { chunks } : {});
  const { printRows } = await import('./stats.js');
  printRows('Served mode start-up: spawn → first /api/health 200', rows.map((r) => ({ ...r })));
}
