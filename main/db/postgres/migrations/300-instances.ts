import { m300_instances } from '../../migrations/300-instances.js';
import type { PostgresMigration } from './index.js';

/** SQLite's migration 300 (instances, heartbeats, claims): plain SQL that means the same on both. */
export const pg300_instances: PostgresMigration = {
  version: 300,
  name: m300_instances.name,
  sql: m300_instances.sql,
};
