// Runs keyword-worker.ts from source (tests, `tsx` runs), where no built keyword-worker.js sits
// beside keyword-thread.ts: registers tsx's loader in this worker thread, then loads the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./keyword-worker.ts');
