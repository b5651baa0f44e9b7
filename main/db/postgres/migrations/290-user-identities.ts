import { m290_user_identities } from '../../migrations/290-user-identities.js';
import type { PostgresMigration } from './index.js';

/** SQLite's migration 290 (OpenID Connect identities and sign-ins under way): plain SQL that means the same on both. */
export const pg290_user_identities: PostgresMigration = {
  version: 290,
  name: m290_user_identities.name,
  sql: m290_user_identities.sql,
};
