import { z } from 'zod';
import { ChatEvent, Message } from '../events.js';
import { modelText, prefixedId } from './common.js';
import { defineOperation } from './define.js';

const MessageText = modelText(200_000);

export const sendChat = defineOperation({
  name: 'chat.send',
  summary:
    'Sends a message and answers it. Without `model_endpoint_override` the router picks the model (dynamic mode); with it, that model or ' +
    'workspace endpoint override answers. Streams as SSE with `stream: true` or `Accept: text/event-stream`.',
  tag: 'Chat',
  access: 'user',
  callsModels: true,
  http: { method: 'POST', path: '/chat', status: 200 },
  input: z.object({
    thread_id: prefixedId('thr').optional(),
    message: MessageText,
    dataset_ids: z.array(prefixedId('ds')).max(20).optional(),
    stream: z.boolean().default(false),
    agentic: z.boolean().default(false),
    model_endpoint_override: z
      .string()
      .regex(/^(mdl|ovr)_[A-Za-z0-9]+$/, 'must be a model id (mdl_…) or a workspace endpoint override id (ovr_…)')
      .optional(),
    workflow_id: prefixedId('wf').optional(),
  }),
  output: z.object({ thread_id: z.string(), user_message_id: z.string(), message: Message }),
  streaming: { mode: 'optional', event: ChatEvent },
});

export const cancelChat = defineOperation({
  name: 'chat.cancel',
  summary: 'Stops a streaming answer; the text produced so far is kept with status `cancelled`.',
  tag: 'Chat',
  access: 'user',
  http: { method: 'POST', path: '/chat/{message_id}/cancel', status: 200 },
  input: z.object({ message_id: prefixedId('msg') }),
  output: z.object({ message: Message }),
});

export const attachChat = defineOperation({
  name: 'chat.stream',
  summary: 'Re-attaches to a running or finished answer, replaying events after `Last-Event-ID` (or `last_event_id`).',
  tag: 'Chat',
  access: 'user',
  http: { method: 'GET', path: '/chat/{message_id}/stream', status: 200 },
  input: z.object({ message_id: prefixedId('msg'), last_event_id: z.coerce.number().int().min(-1).optional() }),
  output: z.null(),
  streaming: { mode: 'always', event: ChatEvent },
});
