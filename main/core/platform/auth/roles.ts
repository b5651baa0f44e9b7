import type { Role } from '../../../../shared/operations/common.js';
import type { Context } from '../context.js';

/** Roles in order of what they may do; each may do all that the ones before it may. */
const RANK: Record<Role, number> = { trial: 0, member: 1, admin: 2, super_admin: 3 };

/** The one role check: whether `role` may do what `least` may. */
export function atLeast(role: Role, least: Role): boolean {
  return RANK[role] >= RANK[least];
}

/** Whether the context's caller is signed in with at least `least` (false for no caller). */
export function callerIs(ctx: Pick<Context, 'caller'>, least: Role): boolean {
  return ctx.caller ? atLeast(ctx.caller.user.role, least) : false;
}

/** Trial users: time-bound, metered, with no API keys of their own. */
export const isTrial = (user: { role: Role }): boolean => user.role === 'trial';
