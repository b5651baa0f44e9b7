import { m300_instances } from '../../migrations/300-instances.js';
import { FOLD_FUNCTION_SQL } from '../fold.js';
import type { PostgresMigration } from './index.js';

/** The text a chunk's words are read from: its words apart (spaceless scripts), else its text. */
const CHUNK_TEXT = (row: string) => `coalesce((SELECT w.words FROM chunk_words w WHERE w.id = ${row}.id), ${row}.text)`;

/**
 * SQLite's migration 300 (instances, heartbeats, claims: plain SQL that means the same on both),
 * and what PostgreSQL lacked beside it: accents folded in chunk search as FTS5's
 * `remove_diacritics 2` folds them (./fold.ts), for the chunks to come and those already there.
 */
export const pg300_instances: PostgresMigration = {
  version: 300,
  name: `${m300_instances.name}; accents folded in chunk search`,
  sql: `${m300_instances.sql}
${FOLD_FUNCTION_SQL}
CREATE OR REPLACE FUNCTION parley_chunk_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.words := to_tsvector('parley', parley_fold(${CHUNK_TEXT('NEW')}));
  NEW.tokens := (SELECT count(*) FROM unnest(NEW.words) u, unnest(u.positions) p);
  RETURN NEW;
END $$;
UPDATE chunks c SET words = to_tsvector('parley', parley_fold(${CHUNK_TEXT('c')})) WHERE parley_fold(${CHUNK_TEXT('c')}) <> ${CHUNK_TEXT('c')};
`,
};
