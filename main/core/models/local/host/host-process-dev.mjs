// Runs host-process.ts from source (tests, `tsx` runs), where no built host-process.js sits beside
// client.ts: registers tsx's loader in this child process, then loads the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./host-process.ts');
