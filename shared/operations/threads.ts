import { z } from 'zod';
import { Message } from '../events.js';
import { NoContent, PageQuery, Timestamp, displayText, page, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { Dataset } from './datasets.js';
import { MaxTokens, Temperature } from '../sampling.js';

export const Thread = z.object({
  id: z.string(),
  title: z.string(),
  dataset_ids: z.array(z.string()),
  suggestions_enabled: z.boolean(),
  system_prompt: z.string().nullable(),
  /** The chat's own sampling temperature; null: the model's default. A request's own `temperature` wins. */
  temperature: z.number().nullable(),
  /** The chat's own answer length limit, in tokens; null: the model's default. A request's own `max_tokens` wins. */
  max_tokens: z.number().int().nullable(),
  workflow_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Thread = z.infer<typeof Thread>;

/** Where a search found a thread by what was said in it: the first message that matched and its words around the match. */
export const ThreadMatch = z.object({ message_id: z.string(), snippet: z.string() });
export type ThreadMatch = z.infer<typeof ThreadMatch>;
/** A thread in the list; `match` only when `q` was given and one of its messages matched. */
export const ThreadListItem = Thread.extend({ match: ThreadMatch.optional() });
export type ThreadListItem = z.infer<typeof ThreadListItem>;

const DatasetIds = z.array(prefixedId('ds')).max(20);
const SystemPrompt = z.string().max(20_000).refine((s) => s.isWellFormed(), 'must be well-formed Unicode');
const ThreadId = prefixedId('thr');

const ThreadSettings = {
  dataset_ids: DatasetIds.optional(),
  suggestions_enabled: z.boolean().optional(),
  system_prompt: SystemPrompt.nullable().optional(),
  temperature: Temperature.nullable().optional(),
  max_tokens: MaxTokens.nullable().optional(),
  workflow_id: prefixedId('wf').nullable().optional(),
};

export const createThread = defineOperation({
  name: 'threads.create',
  summary: 'Creates a thread. A thread is not bound to a model: any model may answer any message.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'POST', path: '/threads', status: 201 },
  input: z.object({ title: displayText(200).optional(), ...ThreadSettings }),
  output: Thread,
});

export const listThreads = defineOperation({
  name: 'threads.list',
  summary:
    "The caller's threads, newest first; `q` keeps those whose title holds it or one of whose messages holds its words (the last one as a prefix), each found by a message with `match`.",
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/threads', status: 200 },
  input: PageQuery.extend({ q: z.string().max(200).optional() }),
  output: page(ThreadListItem),
});

export const getThread = defineOperation({
  name: 'threads.get',
  summary: 'One thread with its configuration.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/threads/{id}', status: 200 },
  input: z.object({ id: ThreadId }),
  output: Thread,
});

export const updateThread = defineOperation({
  name: 'threads.update',
  summary: 'Renames a thread or changes its configuration (datasets, suggestions, system prompt, temperature, max tokens, workflow); `null` clears a setting.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'PATCH', path: '/threads/{id}', status: 200 },
  input: z.object({ id: ThreadId, title: displayText(200).optional(), ...ThreadSettings }),
  output: Thread,
});

export const deleteThread = defineOperation({
  name: 'threads.delete',
  summary: 'Deletes a thread and its messages.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'DELETE', path: '/threads/{id}', status: 204 },
  input: z.object({ id: ThreadId }),
  output: NoContent,
});

export const threadFiles = defineOperation({
  name: 'threads.files',
  summary:
    "The thread's own dataset, for the files attached in its composer: made on the first call, the same one after (idempotent). " +
    "Always among the thread's `dataset_ids`; its owner's alone, not listed by `GET /datasets` (unless `include=threads`); deleted with the thread. " +
    'Files go in with the ordinary uploads (`POST /uploads` with its `kb_id`).',
  tag: 'Threads',
  access: 'user',
  http: { method: 'POST', path: '/threads/{id}/files', status: 200 },
  input: z.object({ id: ThreadId }),
  output: Dataset,
});

export const listMessages = defineOperation({
  name: 'threads.messages',
  summary: 'Messages of a thread, oldest first.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/threads/{id}/messages', status: 200 },
  input: PageQuery.extend({ id: ThreadId }),
  output: page(Message),
});

export const threadSuggestions = defineOperation({
  name: 'threads.suggestions',
  summary: 'Follow-up suggestions are disabled: always 204 No Content.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/threads/{id}/suggestions', status: 204 },
  input: z.object({ id: ThreadId }),
  output: NoContent,
});
