import type { Migration } from './index.js';

export const m160_drop_message_thoughts: Migration = {
  version: 160,
  name: 'drop the unused messages.thoughts column',
  sql: `
-- An agentic answer's steps have lived in their own table since migration 080; this column was
-- only ever written as '[]' and read by nothing. No index, trigger or view names it.
ALTER TABLE messages DROP COLUMN thoughts;
`,
};
