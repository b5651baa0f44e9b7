import { z } from 'zod';
import { ChatEvent, Message } from '../events.js';
import { modelText, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { SamplingFields } from '../sampling.js';
import { CHAT_IMAGE_TYPES, MAX_CHAT_IMAGES, MAX_CHAT_IMAGE_BYTES } from '../chat-images.js';

const MessageText = modelText(200_000);

/** Base64 characters of the largest image (`MAX_CHAT_IMAGE_BYTES` decoded). */
const MAX_IMAGE_BASE64 = Math.ceil(MAX_CHAT_IMAGE_BYTES / 3) * 4;

/** An image sent with a message; its bytes are checked for what they are, whatever `media_type` says. */
export const ChatImageInput = z.object({
  /** The file name, shown as the image's alt text. */
  name: z.string().trim().min(1).max(255).optional(),
  media_type: z.enum(CHAT_IMAGE_TYPES),
  data: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_IMAGE_BASE64, `must be at most ${MAX_CHAT_IMAGE_BYTES / (1024 * 1024)} MB of image (base64)`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});

export const sendChat = defineOperation({
  name: 'chat.send',
  summary:
    'Sends a message and answers it. Without `model_endpoint_override` the router picks the model (dynamic mode); with it, that model or ' +
    'workspace endpoint override answers. Streams as SSE with `stream: true` or `Accept: text/event-stream`.',
  tag: 'Chat',
  access: 'user',
  callsModels: true,
  // Images make a valid body larger than `[server] body_limit_mb`: room for all of them and the text.
  http: { method: 'POST', path: '/chat', status: 200, bodyLimit: MAX_CHAT_IMAGES * MAX_IMAGE_BASE64 + 2 * 1024 * 1024 },
  input: z.object({
    thread_id: prefixedId('thr').optional(),
    /**
     * The message of `thread_id` the new one follows: the end of the branch the reader has on screen
     * (they switched to an older answer or question). Default: the thread's newest message.
     */
    parent_id: prefixedId('msg').optional(),
    message: MessageText,
    dataset_ids: z.array(prefixedId('ds')).max(20).optional(),
    stream: z.boolean().default(false),
    agentic: z.boolean().default(false),
    model_endpoint_override: z
      .string()
      .regex(/^(mdl|ovr)_[A-Za-z0-9]+$/, 'must be a model id (mdl_…) or a workspace endpoint override id (ovr_…)')
      .optional(),
    workflow_id: prefixedId('wf').optional(),
    /** Images for a model that reads them (`capabilities.vision`), kept with the message. */
    images: z.array(ChatImageInput).max(MAX_CHAT_IMAGES, `at most ${MAX_CHAT_IMAGES} images per message`).optional(),
    /** Sampling of this answer; unset fields take the model's defaults. */
    ...SamplingFields,
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

/** How a regenerated, edited or continued answer is asked for: streamed or not, and by which model. */
const AnswerOptions = {
  stream: z.boolean().default(false),
  model_endpoint_override: sendChat.input.shape.model_endpoint_override,
};
const AnswerOutput = sendChat.output;

export const regenerateChat = defineOperation({
  name: 'chat.regenerate',
  summary:
    'Answers the question of an earlier answer again, as a new answer after the thread\'s newest message; the old answer is kept. ' +
    'Any model may answer (`model_endpoint_override`), otherwise the router picks one. The new answer sees only the messages before its question.',
  tag: 'Chat',
  access: 'user',
  http: { method: 'POST', path: '/chat/{message_id}/regenerate', status: 200 },
  input: z.object({ message_id: prefixedId('msg'), ...AnswerOptions, agentic: z.boolean().default(false) }),
  output: AnswerOutput,
  streaming: { mode: 'optional', event: ChatEvent },
});

export const editChat = defineOperation({
  name: 'chat.edit',
  summary:
    'Sends an edited version of one of your messages: a new message with the new text, following what the old one followed, and its answer. ' +
    'The old message and its answers are kept (a branch); later messages continue from the newest.',
  tag: 'Chat',
  access: 'user',
  http: { method: 'POST', path: '/chat/{message_id}/edit', status: 200 },
  input: z.object({ message_id: prefixedId('msg'), message: MessageText, ...AnswerOptions, agentic: z.boolean().default(false) }),
  output: AnswerOutput,
  streaming: { mode: 'optional', event: ChatEvent },
});

export const continueChat = defineOperation({
  name: 'chat.continue',
  summary:
    'Goes on with an answer that stopped early (`error`, `cancelled` or `interrupted`): the same message streams again, its kept text first, ' +
    'and the model that wrote it continues from it (another only when `model_endpoint_override` names one, or routed when that model was removed: its routing then names both). ' +
    '`409 conflict` for an answer that is complete or still being written.',
  tag: 'Chat',
  access: 'user',
  http: { method: 'POST', path: '/chat/{message_id}/continue', status: 200 },
  input: z.object({ message_id: prefixedId('msg'), ...AnswerOptions }),
  output: AnswerOutput,
  streaming: { mode: 'optional', event: ChatEvent },
});
