import type { AuthedSlice } from '../context.js';
import { userView } from './views.js';

export function me(ctx: AuthedSlice<'repos'>) {
  const u = ctx.caller.user;
  return { user: userView(u), workspace: { id: u.workspace_id, name: u.workspace_name }, trial: trialOf(ctx) };
}

/** A trial caller's bounds, so that they can see what is left before a model call is refused. */
function trialOf(ctx: AuthedSlice<'repos'>) {
  const token = ctx.caller.trialTokenId ? ctx.repos.credentials.getUserToken(ctx.caller.trialTokenId) : undefined;
  if (!token) return null;
  return {
    expires_at: token.expires_at,
    quota: token.quota,
    used: token.used,
    remaining: token.quota === null ? null : Math.max(0, token.quota - token.used),
  };
}
