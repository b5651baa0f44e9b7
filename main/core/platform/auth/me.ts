import type { AuthedSlice } from '../context.js';
import { userView } from './views.js';

export function me(ctx: AuthedSlice) {
  const u = ctx.caller.user;
  return { user: userView(u), workspace: { id: u.workspace_id, name: u.workspace_name } };
}
