import { Worker } from 'node:worker_threads';
import type { BackgroundJob, BackgroundResult } from './background-protocol.js';
import { workerScript } from '../../launch/worker-script.js';

export type { BackgroundJob, BackgroundResult } from './background-protocol.js';

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
    const worker = new Worker(workerScript(import.meta.url, 'background-worker'), { workerData: job });
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
