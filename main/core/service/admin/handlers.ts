import type { Handlers } from '../../platform/operation-handlers.js';
import { createUser, createUserToken, endTrial, listUsers, updateUser } from './users.js';
import { configHistory, getConfig, patchConfig, putConfig, rollbackConfig } from './config.js';
import { metrics } from '../metrics/metrics.js';

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const adminHandlers: Pick<Handlers, 'admin.users.list' | 'admin.users.create' | 'admin.users.update' | 'admin.userTokens.create' | 'admin.users.trial.end' | 'admin.config.get' | 'admin.config.put' | 'admin.config.patch' | 'admin.config.history' | 'admin.config.rollback' | 'admin.metrics'> = {
  'admin.users.list': listUsers,
  'admin.users.create': createUser,
  'admin.users.update': updateUser,
  'admin.userTokens.create': createUserToken,
  'admin.users.trial.end': endTrial,
  'admin.config.get': getConfig,
  'admin.config.put': putConfig,
  'admin.config.patch': patchConfig,
  'admin.config.history': configHistory,
  'admin.config.rollback': rollbackConfig,
  'admin.metrics': metrics,
};
