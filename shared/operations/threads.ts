import { z } from 'zod';
import { Message } from '../events.js';
import { NoContent, PageQuery, Timestamp, displayText, page, prefixedId } from './common.js';
import { defineOperation } from './define.js';

export const Thread = z.object({
  id: z.string(),
  title: z.string(),
  dataset_ids: z.array(z.string()),
  suggestions_enabled: z.boolean(),
  system_prompt: z.string().nullable(),
  workflow_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Thread = z.infer<typeof Thread>;

const DatasetIds = z.array(prefixedId('ds')).max(20);
const SystemPrompt = z.string().max(20_000).refine((s) => s.isWellFormed(), 'must be well-formed Unicode');
const ThreadId = prefixedId('thr');

const ThreadSettings = {
  dataset_ids: DatasetIds.optional(),
  suggestions_enabled: z.boolean().optional(),
  system_prompt: SystemPrompt.nullable().optional(),
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
  summary: "The caller's threads, newest first; `q` filters by title.",
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/threads', status: 200 },
  input: PageQuery.extend({ q: z.string().max(200).optional() }),
  output: page(Thread),
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
  summary: 'Renames a thread or changes its configuration (datasets, suggestions, system prompt, workflow).',
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
