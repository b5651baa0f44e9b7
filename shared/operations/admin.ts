import { z } from 'zod';
import { NoContent, Role, Timestamp, displayText, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { ApiKey, User } from './identity.js';

/** A trial user's user token as administration sees it: when it ends and what is left of its quota. */
export const TrialStatus = z.object({
  expires_at: Timestamp,
  expired: z.boolean(),
  quota: z.number().int().nullable().describe('Model calls the token may make; null: no quota.'),
  used: z.number().int(),
  remaining: z.number().int().nullable(),
});

export const AdminUser = User.extend({
  created_at: Timestamp,
  disabled: z.boolean(),
  /** Set for trial users (their latest user token); null for everyone else. */
  trial: TrialStatus.nullable(),
});

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
    quota: z.number().int().min(1).max(1_000_000).optional().describe('Model calls the token may make (chat answers, agent steps, comparison answers, /v1 completions); reading pages is free.'),
  }),
  output: z.object({ token: z.string(), expires_at: Timestamp, quota: z.number().nullable(), user: AdminUser }),
});

export const endTrial = defineOperation({
  name: 'admin.users.trial.end',
  summary: 'Ends a trial user’s trial at once: their user tokens expire now, and every credential they hold stops working (401). Answers the user, trial ended.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'DELETE', path: '/admin/users/{id}/trial', status: 200 },
  input: z.object({ id: prefixedId('usr') }),
  output: AdminUser,
});

const UserKeyPath = z.object({ id: prefixedId('usr') });

export const listUserApiKeys = defineOperation({
  name: 'admin.users.apiKeys.list',
  summary: 'A user’s API keys that are not revoked (never the keys themselves).',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'GET', path: '/admin/users/{id}/api-keys', status: 200 },
  input: UserKeyPath,
  output: list(ApiKey),
});

export const createUserApiKey = defineOperation({
  name: 'admin.users.apiKeys.create',
  summary: 'Issues a new API key for a user, shown once. Trial users cannot hold keys (403).',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'POST', path: '/admin/users/{id}/api-keys', status: 201 },
  input: UserKeyPath.extend({ name: displayText(100) }),
  output: ApiKey.extend({ key: z.string() }),
});

export const deleteUserApiKey = defineOperation({
  name: 'admin.users.apiKeys.delete',
  summary: 'Revokes one of a user’s API keys at once.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'DELETE', path: '/admin/users/{id}/api-keys/{key_id}', status: 204 },
  input: UserKeyPath.extend({ key_id: prefixedId('key') }),
  output: NoContent,
});
