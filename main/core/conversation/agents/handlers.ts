import type { AgentThought } from '../../../../shared/operations/agents.js';
import type { AuthedContext } from '../../platform/context.js';
import { ownMessage } from '../chat/owned.js';

/** `GET /messages/{id}/thoughts`: the steps of an agentic answer in one of the caller's threads. */
export function messageThoughts(ctx: AuthedContext, input: { id: string }): { data: AgentThought[] } {
  const message = ownMessage(ctx, input.id);
  return { data: ctx.repos.thoughts.ofMessage(message.id) };
}
