import type { InputOf } from '../../platform/operation-handlers.js';

/**
 * What a chat request asks for, as the chat operations and workflows (which fill parts of it in)
 * see it: `chat.send`'s input but whether it streams, which only the transport cares about.
 */
export type ChatInput = Omit<InputOf<'chat.send'>, 'stream'>;
