import type { z } from 'zod';
import type { Operations } from '../../shared/operations/index.js';
import * as adminUsers from './admin/users.js';
import * as apiKeys from './auth/api-keys.js';
import { me } from './auth/me.js';
import type { AuthedContext, Context } from './context.js';
import * as status from './service/status.js';

type CtxFor<K extends keyof Operations> = Operations[K]['access'] extends 'public' ? Context : AuthedContext;

/** One plain function per operation; the compiler checks each against its schemas. */
export type Handlers = {
  [K in keyof Operations]: (
    ctx: CtxFor<K>,
    input: z.output<Operations[K]['input']>,
  ) => z.input<Operations[K]['output']> | Promise<z.input<Operations[K]['output']>>;
};

export const handlers: Handlers = {
  'service.health': status.health,
  'service.version': status.version,
  'identity.me': me,
  'apiKeys.create': apiKeys.createApiKey,
  'apiKeys.list': apiKeys.listApiKeys,
  'apiKeys.delete': apiKeys.deleteApiKey,
  'admin.users.list': adminUsers.listUsers,
  'admin.users.create': adminUsers.createUser,
  'admin.users.update': adminUsers.updateUser,
  'admin.userTokens.create': adminUsers.createUserToken,
};
