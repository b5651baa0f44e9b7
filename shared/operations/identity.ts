import { z } from 'zod';
import { Empty, NoContent, Role, Timestamp, displayText, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';

export const Organization = z.object({ id: z.string(), name: z.string() });

export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: Role,
  organization: Organization,
});
export type User = z.infer<typeof User>;

/** What bounds a trial caller: when their token ends and how many model calls it has left. */
export const MyTrial = z.object({
  expires_at: Timestamp,
  quota: z.number().int().nullable().describe('Model calls the token may make; null: no quota.'),
  used: z.number().int(),
  remaining: z.number().int().nullable().describe('Model calls left; null: no quota.'),
});

export const me = defineOperation({
  name: 'identity.me',
  summary: 'The caller: user, organization and current workspace; for a trial user, their trial (expiry, model calls left).',
  tag: 'Identity',
  access: 'user',
  http: { method: 'GET', path: '/me', status: 200 },
  input: Empty,
  output: z.object({
    user: User,
    workspace: z.object({ id: z.string(), name: z.string() }),
    trial: MyTrial.nullable().describe('Set for a trial caller (the user token that bounds them); null for everyone else.'),
  }),
});

export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, for recognising it; the key itself is never shown again.'),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
});

const KeyName = displayText(100);

export const createApiKey = defineOperation({
  name: 'apiKeys.create',
  summary: 'Creates an API key that acts as the caller. The plain key is in this answer only.',
  tag: 'Identity',
  access: 'user',
  http: { method: 'POST', path: '/api-keys', status: 201 },
  input: z.object({ name: KeyName }),
  output: ApiKey.extend({ key: z.string() }),
});

export const listApiKeys = defineOperation({
  name: 'apiKeys.list',
  summary: "The caller's API keys that are not revoked.",
  tag: 'Identity',
  access: 'user',
  http: { method: 'GET', path: '/api-keys', status: 200 },
  input: Empty,
  output: list(ApiKey),
});

export const deleteApiKey = defineOperation({
  name: 'apiKeys.delete',
  summary: 'Revokes one of the caller’s API keys at once.',
  tag: 'Identity',
  access: 'user',
  http: { method: 'DELETE', path: '/api-keys/{id}', status: 204 },
  input: z.object({ id: prefixedId('key') }),
  output: NoContent,
});

export const redeemSignInCode = defineOperation({
  name: 'signInCodes.redeem',
  summary:
    'Exchanges the one-time code of a sign-in link (printed by served mode) for a new API key of its user, named "Browser sign-in". ' +
    'A code works once and for 10 minutes; a used, replaced or expired one is refused with 401.',
  tag: 'Identity',
  access: 'public',
  http: { method: 'POST', path: '/sign-in-codes/redeem', status: 201 },
  input: z.object({ code: z.string().min(1).max(200).describe('The code after `#/sign-in/` in the link.') }),
  output: ApiKey.extend({ key: z.string() }),
});
