import type { Handlers } from '../operation-handlers.js';
import { me } from './me.js';
import { createApiKey, createUserApiKey, deleteApiKey, deleteUserApiKey, listApiKeys, listUserApiKeys } from './api-keys.js';
import { redeemSignInCode } from './sign-in-code.js';

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const authHandlers: Pick<Handlers, 'identity.me' | 'apiKeys.create' | 'apiKeys.list' | 'apiKeys.delete' | 'signInCodes.redeem' | 'admin.users.apiKeys.list' | 'admin.users.apiKeys.create' | 'admin.users.apiKeys.delete'> = {
  'identity.me': me,
  'apiKeys.create': createApiKey,
  'apiKeys.list': listApiKeys,
  'apiKeys.delete': deleteApiKey,
  'signInCodes.redeem': redeemSignInCode,
  'admin.users.apiKeys.list': listUserApiKeys,
  'admin.users.apiKeys.create': createUserApiKey,
  'admin.users.apiKeys.delete': deleteUserApiKey,
};
