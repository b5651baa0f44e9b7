import type { ApiKeyRecord } from '../../../db/repositories/credentials.js';
import type { UserRecord } from '../../../db/repositories/users.js';

/** The public shape of a user: never a credential, never an internal column. */
export function userView(u: UserRecord) {
  return { id: u.id, email: u.email, name: u.name, role: u.role, organization: { id: u.organization_id, name: u.organization_name } };
}

export function adminUserView(u: UserRecord) {
  return { ...userView(u), created_at: u.created_at, disabled: u.disabled_at !== null };
}

export function apiKeyView(k: ApiKeyRecord) {
  return { id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at, last_used_at: k.last_used_at };
}
