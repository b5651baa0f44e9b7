import { z } from 'zod';
import { Role, Timestamp, displayText, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { ApiKey, User } from './identity.js';

export const AdminUser = User.extend({ created_at: Timestamp, disabled: z.boolean() });

const Email = z.string().trim().toLowerCase().email().max(254);
const Name = displayText(200);

export const listUsers = defineOperation({
  name: 'admin.users.list',
  summary: 'Every user of the caller’s organization.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'GET', path: '/admin/users', status: 200 },
  input: z.object({}),
  output: list(AdminUser),
});

export const createUser = defineOperation({
  name: 'admin.users.create',
  summary: 'Creates a user in the caller’s organization, with a first API key shown once.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'POST', path: '/admin/users', status: 201 },
  input: z.object({ email: Email, name: Name, role: Role.default('member') }),
  output: z.object({ user: AdminUser, api_key: ApiKey.extend({ key: z.string() }) }),
});

export const updateUser = defineOperation({
  name: 'admin.users.update',
  summary: 'Renames a user, changes their role, or disables them (their keys stop working).',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'PATCH', path: '/admin/users/{id}', status: 200 },
  input: z.object({
    id: prefixedId('usr'),
    name: Name.optional(),
    role: Role.optional(),
    disabled: z.boolean().optional(),
  }),
  output: AdminUser,
});

export const createUserToken = defineOperation({
  name: 'admin.userTokens.create',
  summary: 'Issues a user token (`ut_…`) that onboards a trial user; it expires and may carry a request quota.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'POST', path: '/admin/user-tokens', status: 201 },
  input: z.object({
    email: Email.optional(),
    expires_in: z.number().int().min(60).max(90 * 24 * 3600).describe('Seconds until the token expires.'),
    quota: z.number().int().min(1).max(1_000_000).optional().describe('Requests the token may make.'),
  }),
  output: z.object({ token: z.string(), expires_at: Timestamp, quota: z.number().nullable(), user: AdminUser }),
});
