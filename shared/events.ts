import { z } from 'zod';
import { ErrorCodeSchema } from './operations/common.js';
import { CHAT_IMAGE_TYPES } from './chat-images.js';

/** How a message's model was chosen; stored on the message and sent first in every stream. */
export const Routing = z.object({
  mode: z.enum(['dynamic', 'override']),
  model_id: z.string(),
  reason: z.string(),
  /** Models that failed before their first token and were skipped, in order. */
  skipped: z.array(z.object({ model_id: z.string(), code: z.string(), detail: z.string() })).default([]),
});
export type Routing = z.infer<typeof Routing>;

/**
 * How an answer's citation was found: the model wrote its `[n]` (`marker`), or the answer wrote
 * none and its sentences share their content words with the passage (`overlap`).
 */
export const Attribution = z.enum(['marker', 'overlap']);
export type Attribution = z.infer<typeof Attribution>;

export const Citation = z.object({
  index: z.number().int(),
  dataset_id: z.string(),
  artifact_id: z.string(),
  artifact_key: z.string(),
  snippet: z.string(),
  location: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
  /**
   * Set on a finished answer's citations. Absent on the passages streamed before the text (what the
   * answer may draw on), on a comparison's passages, and on answers stored before it existed.
   */
  attribution: Attribution.optional(),
});
export type Citation = z.infer<typeof Citation>;

export const Thought = z.object({
  id: z.string(),
  kind: z.enum(['plan', 'tool_call', 'observation', 'answer']),
  content: z.string(),
});

export const MessageStatus = z.enum(['streaming', 'complete', 'error', 'cancelled', 'interrupted']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Usage = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() });

/** An image sent with a message, without its bytes (`messages.image` serves them). */
export const MessageImage = z.object({
  id: z.string(),
  /** The file name it was sent with: its alt text. */
  name: z.string(),
  media_type: z.enum(CHAT_IMAGE_TYPES),
  /** Bytes. */
  size: z.number().int().nonnegative(),
});
export type MessageImage = z.infer<typeof MessageImage>;

export const Message = z.object({
  id: z.string(),
  thread_id: z.string(),
  /**
   * The message this one follows in its branch (null for the first). Editing a question or
   * regenerating an answer adds a message whose parent is earlier than the newest one; the thread
   * lists every message, oldest first, and a model sees only the branch it continues.
   */
  parent_id: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  status: MessageStatus,
  model_id: z.string().nullable(),
  routing: Routing.nullable(),
  citations: z.array(Citation),
  thoughts: z.array(Thought),
  usage: Usage.nullable(),
  /** An answer's time from its start to its first token; null while none came, for questions, and for answers stored before it was kept. */
  first_token_ms: z.number().int().nonnegative().nullable(),
  /** An answer's time from its start to its end; null while it streams, for questions, and for answers stored before it was kept. */
  latency_ms: z.number().int().nonnegative().nullable(),
  /** Images sent with a question, in their order (none for answers). */
  images: z.array(MessageImage).default([]),
  error: z.object({ code: ErrorCodeSchema, detail: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Message = z.infer<typeof Message>;

/**
 * The events of a chat stream, in order: `message.created`, then any number of `thought`, `delta`
 * and `citation`, then exactly one `message.completed` or `error`. After the first answer of a
 * thread that the user has not named, one `thread.updated` may follow `message.completed`: the
 * thread's new title, written once the answer was done. Over HTTP each is an SSE event
 * (`event:` the type, `id:` the sequence number); over IPC a `StreamMessage` of this shape.
 */
export const ChatEvent = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('message.created'),
    data: z.object({ thread_id: z.string(), user_message_id: z.string(), message_id: z.string(), routing: Routing }),
  }),
  z.object({ event: z.literal('thought'), data: Thought }),
  z.object({ event: z.literal('delta'), data: z.object({ content: z.string() }) }),
  z.object({ event: z.literal('citation'), data: Citation }),
  z.object({ event: z.literal('message.completed'), data: z.object({ message: Message }) }),
  z.object({ event: z.literal('error'), data: z.object({ code: ErrorCodeSchema, detail: z.string(), message_id: z.string() }) }),
  z.object({ event: z.literal('thread.updated'), data: z.object({ thread_id: z.string(), title: z.string() }) }),
]);
export type ChatEvent = z.infer<typeof ChatEvent>;

/** A chat event with its position in the stream (the SSE `id`), for replay from `Last-Event-ID`. */
export type SequencedEvent = ChatEvent & { id: number };

/** Any operation's stream event: a type and its payload (chat answers, model comparisons). */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** A stream event with its position in the stream (the SSE `id`). */
export type Sequenced<E extends StreamEvent = StreamEvent> = E & { id: number };
