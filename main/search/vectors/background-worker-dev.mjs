// Runs background-worker.ts from source (tests, `tsx` runs), where no built background-worker.js
// sits beside background.ts: registers tsx's loader in this worker thread, then loads the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./background-worker.ts');
