import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BackgroundJob, BackgroundResult } from './background-protocol.js';

export type { BackgroundJob, BackgroundResult } from './background-protocol.js';

/**
 * The worker's script: `background-worker.js` beside this module once bundled (dist/main/), else —
 * run from source under vitest or tsx — a small .mjs that loads the TypeScript through tsx.
 */
function workerScript(): string {
  const built = fileURLToPath(new URL('./background-worker.js', import.meta.url));
  if (existsSync(built)) return built;
  return fileURLToPath(new URL('./background-worker-dev.mjs', import.meta.url));
}

/**
 * Runs one job in a worker thread of its own; resolves with its result (a failure is a result too,
 * never a rejection). Aborting `signal` terminates the worker (shutdown): a half-written graph is a
 * temp file that is never trusted.
 */
export function runInBackground(job: BackgroundJob, signal?: AbortSignal): Promise<BackgroundResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ kind: job.kind, ok: false, reason: 'stopped' });
      return;
    }
    let settled = false;
    const worker = new Worker(workerScript(), { workerData: job });
    const stop = () => void worker.terminate();
    const done = (result: BackgroundResult) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      resolve(result);
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('message', (result: BackgroundResult) => done(result));
    worker.once('error', (error) => done({ kind: job.kind, ok: false, reason: error.message }));
    worker.once('exit', (code) => done({ kind: job.kind, ok: false, reason: signal?.aborted ? 'stopped' : `the worker stopped (exit code ${code})` }));
  });
}
