import { z } from 'zod';
import { NoContent, Timestamp, displayText, modelText, prefixedId } from './common.js';
import { defineOperation } from './define.js';

/** The id of the built-in workflow, active only while `[features] simple_chat = true`. */
export const SIMPLE_CHAT_WORKFLOW_ID = 'wf_simplechat';

/**
 * A workflow: a named chat setup that admins prepare for everyone in their organization. A chat
 * sent with `workflow_id` uses its system prompt and, where the request leaves them out, its
 * defaults (model, datasets, agentic mode); the thread remembers the workflow for later messages.
 */
export const Workflow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  system_prompt: z.string(),
  /** The model (`mdl_…`) or workspace endpoint override (`ovr_…`) that answers; null: dynamic routing. */
  model_endpoint_override: z.string().nullable(),
  /** Datasets a chat draws on when it names none itself. */
  dataset_ids: z.array(z.string()),
  agentic: z.boolean(),
  active: z.boolean(),
  /** The built-in Simple Chat: follows the `simple_chat` feature flag, cannot be edited or deleted. */
  builtin: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workflow = z.infer<typeof Workflow>;

const WorkflowId = prefixedId('wf');
const Description = z.string().trim().max(2000).refine((s) => s.isWellFormed(), 'must be well-formed Unicode');
const ModelTarget = z.string().regex(/^(mdl|ovr)_[A-Za-z0-9]+$/, 'must be a model id (mdl_…) or a workspace endpoint override id (ovr_…)');
const DatasetIds = z.array(prefixedId('ds')).max(20);

export const createWorkflow = defineOperation({
  name: 'workflows.create',
  summary: 'Creates a workflow for the caller’s organization (admins). It is active at once unless `active: false`.',
  tag: 'Workflows',
  access: 'admin',
  http: { method: 'POST', path: '/workflows', status: 201 },
  input: z.object({
    name: displayText(120),
    description: Description.nullable().optional(),
    system_prompt: modelText(20_000),
    model_endpoint_override: ModelTarget.nullable().optional(),
    dataset_ids: DatasetIds.default([]),
    agentic: z.boolean().default(false),
    active: z.boolean().default(true),
  }),
  output: Workflow,
});

export const listWorkflows = defineOperation({
  name: 'workflows.list',
  summary: 'Active workflows of the caller’s organization, Simple Chat first while its flag is on. Admins may ask for inactive ones too.',
  tag: 'Workflows',
  access: 'user',
  http: { method: 'GET', path: '/workflows', status: 200 },
  input: z.object({
    include_inactive: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')])
      .default(false)
      .describe('Admins only (403 otherwise): list inactive workflows as well.'),
  }),
  output: z.object({ data: z.array(Workflow) }),
});

export const updateWorkflow = defineOperation({
  name: 'workflows.update',
  summary: 'Activates, deactivates, renames or edits a workflow (admins). Simple Chat follows `[features] simple_chat` instead (409).',
  tag: 'Workflows',
  access: 'admin',
  http: { method: 'PATCH', path: '/workflows/{id}', status: 200 },
  input: z.object({
    id: WorkflowId,
    name: displayText(120).optional(),
    description: Description.nullable().optional(),
    system_prompt: modelText(20_000).optional(),
    model_endpoint_override: ModelTarget.nullable().optional(),
    dataset_ids: DatasetIds.optional(),
    agentic: z.boolean().optional(),
    active: z.boolean().optional(),
  }),
  output: Workflow,
});

export const deleteWorkflow = defineOperation({
  name: 'workflows.delete',
  summary: 'Deletes a workflow (admins). Threads that used it keep their messages and go on without it.',
  tag: 'Workflows',
  access: 'admin',
  http: { method: 'DELETE', path: '/workflows/{id}', status: 204 },
  input: z.object({ id: WorkflowId }),
  output: NoContent,
});
