import { z } from 'zod';
import { prefixedId } from './operations/common.js';

/**
 * Parley's extra body field on `/v1/chat/completions`: grounds the answer on datasets without
 * leaving OpenAI's request shape (the official SDKs send extra body fields as they are). Strict,
 * so a misspelt key is a 400 naming it rather than an answer that silently is not grounded.
 */
export const ParleyCompletionOptions = z
  .strictObject({
    /** The datasets to ground on, as `chat.send` takes them; default with `thread_id`: the thread's own. */
    dataset_ids: z.array(prefixedId('ds')).max(20).optional(),
    /** An agent answers, with tools over the datasets, as `chat.send`'s `agentic`. */
    agentic: z.boolean().optional(),
    /** Records the question and the answer in this thread of the caller's; without it nothing is stored. */
    thread_id: prefixedId('thr').optional(),
  })
  .refine((p) => p.dataset_ids !== undefined || p.thread_id !== undefined, {
    message: 'give dataset_ids (and optionally thread_id) to ground the answer',
    path: ['dataset_ids'],
  });
export type ParleyCompletionOptions = z.infer<typeof ParleyCompletionOptions>;
