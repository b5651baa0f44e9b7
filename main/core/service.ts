import { z } from 'zod';
import type { Config } from '../../shared/config.js';
import { ServiceError, type FieldError } from '../../shared/errors.js';
import { isOperationName, operations, type Access, type OperationName } from '../../shared/operations/index.js';
import type { Repositories } from '../db/repositories/index.js';
import { authenticate } from './auth/authenticate.js';
import type { Caller, Context } from './context.js';
import { handlers as defaultHandlers, type Handlers } from './handlers.js';

export interface ServiceOptions {
  repos: Repositories;
  config: () => Config;
  appVersion: string;
  now?: () => Date;
  handlers?: Handlers;
}

const ROLE_RANK = { trial: 0, member: 1, admin: 2, super_admin: 3 } as const;
const REQUIRED_RANK: Record<Exclude<Access, 'public'>, number> = { user: 0, admin: 2, super_admin: 3 };

/** zod issues → `errors: [{ path, message }]`, the shape every validation error has. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * The service core as the transports see it: authenticate a token, invoke an operation by name.
 * Validation, authorization and output shaping happen here once, so HTTP and IPC cannot drift.
 */
export function createService(options: ServiceOptions) {
  const handlers = options.handlers ?? defaultHandlers;
  const base = { repos: options.repos, config: options.config, appVersion: options.appVersion, now: options.now ?? (() => new Date()) };

  return {
    authenticate(token: string | undefined): Caller {
      return authenticate({ ...base, caller: null }, token);
    },

    /** Runs one operation for `caller` with untrusted `rawInput`; throws `ServiceError` on any expected failure. */
    async invoke(name: string, rawInput: unknown, caller: Caller | null): Promise<unknown> {
      if (!isOperationName(name)) throw new ServiceError('not_found', `There is no operation named ${JSON.stringify(name)}.`);
      const op = operations[name];
      authorize(op.access, caller, name);
      const parsed = op.input.safeParse(rawInput ?? {});
      if (!parsed.success) throw new ServiceError('invalid_argument', describe(parsed.error), fieldErrors(parsed.error));
      const ctx: Context = { ...base, caller };
      const handler = handlers[name] as (ctx: Context, input: unknown) => unknown;
      const result = await handler(ctx, parsed.data);
      // The output schema is a whitelist: whatever a handler returns, only declared fields leave.
      return op.output.parse(result);
    },
  };
}

export type Service = ReturnType<typeof createService>;

function authorize(access: Access, caller: Caller | null, name: OperationName): void {
  if (access === 'public') return;
  if (!caller) throw new ServiceError('unauthenticated', 'This operation needs a signed-in caller.');
  if (ROLE_RANK[caller.user.role] < REQUIRED_RANK[access]) {
    const who = access === 'super_admin' ? 'super admins' : 'admins';
    throw new ServiceError('forbidden', `Only ${who} may call ${name}.`);
  }
}

function describe(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request is invalid.';
  const path = first.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path ? `${path}: ` : ''}${first.message}${more}`;
}
