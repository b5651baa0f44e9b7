// Runs pg-worker.ts from source (tests, `tsx` runs), where no built pg-worker.js sits beside
// connection.ts: registers tsx's loader in this worker thread, then loads the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./pg-worker.ts');
