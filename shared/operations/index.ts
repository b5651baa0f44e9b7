import * as admin from './admin.js';
import type { Operation } from './define.js';
import * as identity from './identity.js';
import * as service from './service.js';

/** Every operation of the service, by name. Both transports and the typed client derive from this. */
export const operations = {
  'service.health': service.health,
  'service.version': service.version,
  'identity.me': identity.me,
  'apiKeys.create': identity.createApiKey,
  'apiKeys.list': identity.listApiKeys,
  'apiKeys.delete': identity.deleteApiKey,
  'admin.users.list': admin.listUsers,
  'admin.users.create': admin.createUser,
  'admin.users.update': admin.updateUser,
  'admin.userTokens.create': admin.createUserToken,
} as const satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

export * from './define.js';
export { AdminUser } from './admin.js';
export { ApiKey, Organization, User } from './identity.js';
