// Runs parse-worker.ts from source (tests, `tsx` runs), where no built parse-worker.js sits beside
// parse.ts: registers tsx's loader in this child process, then loads the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
