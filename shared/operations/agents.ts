import { z } from 'zod';
import { Timestamp, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';

/** One stored step of an agentic answer. */
export const AgentThought = z.object({
  id: z.string(),
  message_id: z.string(),
  /** The dataset the step concerned (searched, read); deleting that dataset deletes the step. */
  dataset_id: z.string().nullable(),
  /** Position in the answer, from 1. */
  step: z.number().int(),
  kind: z.enum(['plan', 'tool_call', 'observation', 'answer']),
  content: z.string(),
  created_at: Timestamp,
});
export type AgentThought = z.infer<typeof AgentThought>;

export const messageThoughts = defineOperation({
  name: 'messages.thoughts',
  summary:
    'The intermediate thoughts of an agentic answer (`agentic: true` on `POST /chat`), in the order they happened: plans, tool calls, ' +
    'observations and the answer step. Empty for an answer that was not agentic. The message must be in one of the caller’s threads.',
  tag: 'Chat',
  access: 'user',
  http: { method: 'GET', path: '/messages/{id}/thoughts', status: 200 },
  input: z.object({ id: prefixedId('msg') }),
  output: list(AgentThought),
});
