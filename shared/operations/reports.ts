import { z } from 'zod';
import { Timestamp, prefixedId } from './common.js';
import { defineOperation } from './define.js';

export const Report = z.object({
  id: z.string(),
  dataset_id: z.string(),
  format: z.enum(['markdown', 'html']),
  status: z.enum(['processing', 'ready', 'failed']),
  /** The report itself, once ready. */
  content: z.string().nullable(),
  /** The model that wrote the summary; null when no generative model was available. */
  summary_model_id: z.string().nullable(),
  error: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const createReport = defineOperation({
  name: 'reports.create',
  summary:
    'Writes a report on a dataset: its files, statuses, types, sizes, chunk counts, most characteristic terms, and a summary by a generative model when one is available.',
  tag: 'Reports',
  access: 'user',
  http: { method: 'POST', path: '/reports', status: 201 },
  input: z.object({ dataset_id: prefixedId('ds'), format: z.enum(['markdown', 'html']).default('markdown') }),
  output: Report,
});

export const getReport = defineOperation({
  name: 'reports.get',
  summary: 'One report; `status` says whether it is ready.',
  tag: 'Reports',
  access: 'user',
  http: { method: 'GET', path: '/reports/{id}', status: 200 },
  input: z.object({ id: prefixedId('rpt') }),
  output: Report,
});
