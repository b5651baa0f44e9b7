import { z } from 'zod';
import { defineOperation } from './define.js';

const Orientation = z.enum(['horizontal', 'vertical']).describe('From `[ui] carousel` in the config.');

export const suggestedPrompts = defineOperation({
  name: 'suggestions.prompts',
  summary: 'Prompts to start a chat from, for the home screen carousel.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/suggestions/prompts', status: 200 },
  input: z.object({}),
  output: z.object({
    orientation: Orientation,
    data: z.array(z.object({ id: z.string(), title: z.string(), prompt: z.string(), dataset_id: z.string().nullable() })),
  }),
});

export const suggestedDatasets = defineOperation({
  name: 'suggestions.datasets',
  summary: 'Datasets worth chatting with (recent, with files ready), for the home screen carousel.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/suggestions/datasets', status: 200 },
  input: z.object({}),
  output: z.object({
    orientation: Orientation,
    data: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), ready_count: z.number().int() })),
  }),
});
