import type { AgentThought } from '../../../../shared/operations/agents.js';
import type { AuthedSlice } from '../../platform/context.js';
import { ownMessage } from '../threads/owned.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';

/** `GET /messages/{id}/thoughts`: the steps of an agentic answer in one of the caller's threads. */
export function messageThoughts(ctx: AuthedSlice<'repos'>, input: InputOf<'messages.thoughts'>): { data: AgentThought[] } {
  const message = ownMessage(ctx, input.id);
  return { data: ctx.repos.thoughts.ofMessage(message.id) };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const agentHandlers: Pick<Handlers, 'messages.thoughts'> = {
  'messages.thoughts': messageThoughts,
};
