import type { Migration } from './index.js';

/**
 * Issue 31, expectation 4: a chat's own settings. Beside its instructions (`system_prompt`, 030) a
 * thread keeps a temperature and a maximum answer length; NULL (every existing thread) means the
 * model's default, so nothing needs backfilling. The ranges are the API's (shared/sampling.ts).
 */
export const m260_thread_sampling: Migration = {
  version: 260,
  name: 'per-thread temperature and max tokens',
  sql: `
ALTER TABLE threads ADD COLUMN temperature REAL CHECK (temperature IS NULL OR (temperature >= 0 AND temperature <= 2));
ALTER TABLE threads ADD COLUMN max_tokens INTEGER CHECK (max_tokens IS NULL OR (max_tokens >= 1 AND max_tokens <= 1000000));
`,
};
