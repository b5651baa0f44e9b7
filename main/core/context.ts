import type { Config } from '../../shared/config.js';
import type { Repositories } from '../db/repositories/index.js';
import type { UserRecord } from '../db/repositories/users.js';

/** How a caller proved who they are. The desktop renderer over IPC acts as the desktop profile. */
export type CredentialKind = 'ipc' | 'api_key' | 'user_token' | 'access_token';

export interface Caller {
  user: UserRecord;
  via: CredentialKind;
}

/** What every core function receives: the stores, the live configuration and the caller. */
export interface Context {
  repos: Repositories;
  config: () => Config;
  now: () => Date;
  appVersion: string;
  caller: Caller | null;
}

/** A context with a signed-in caller, as every non-public operation gets. */
export interface AuthedContext extends Context {
  caller: Caller;
}

export const isoNow = (ctx: Pick<Context, 'now'>): string => ctx.now().toISOString();
