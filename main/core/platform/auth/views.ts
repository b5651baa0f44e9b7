import type { z } from 'zod';
import type { AdminUser } from '../../../../shared/operations/admin.js';
import type { User } from '../../../../shared/operations/identity.js';
import type { UserRecord } from '../../../db/repositories/users.js';

/** The public shape of a user: never a credential, never an internal column. */
export function userView(u: UserRecord): z.input<typeof User> {
  return { id: u.id, email: u.email, name: u.name, role: u.role, organization: { id: u.organization_id, name: u.organization_name } };
}

export function adminUserView(u: UserRecord): Omit<z.input<typeof AdminUser>, 'trial'> {
  return { ...userView(u), created_at: u.created_at, disabled: u.disabled_at !== null };
}
