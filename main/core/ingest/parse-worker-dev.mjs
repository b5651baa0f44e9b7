// Runs parse-worker.ts from source (tests, `tsx` runs), where no built parse-worker.js sits beside
// parse.ts: registers tsx's loader in this worker thread, then loads the TypeScript entry. (Node 20
// does not apply `--import tsx` from a worker's execArgv to the worker's own entry module.)
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
