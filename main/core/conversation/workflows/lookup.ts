import { ServiceError } from '../../../../shared/errors.js';
import { SIMPLE_CHAT_WORKFLOW_ID, type Workflow } from '../../../../shared/operations/workflows.js';
import type { WorkflowRecord } from '../../../db/repositories/workflows.js';
import type { AuthedSlice } from '../../platform/context.js';
import { simpleChat } from './builtin.js';

/** What finding a workflow reads: the organization's stored ones and the configuration (Simple Chat). */
export type WorkflowCtx = AuthedSlice<'repos' | 'config'>;

/* Finding a workflow, for its handlers and for the chats that apply one (workflows/apply.ts). */

/** The record with its datasets; the output schema leaves its internal columns behind. */
export function workflowView(ctx: AuthedSlice<'repos'>, row: WorkflowRecord): Workflow {
  return { ...row, dataset_ids: ctx.repos.workflows.datasetIds(row.id), builtin: false };
}

/** A workflow of the caller's organization, built-in included, whether active or not; not_found otherwise. */
export function findWorkflow(ctx: WorkflowCtx, id: string): Workflow {
  if (id === SIMPLE_CHAT_WORKFLOW_ID) return simpleChat(ctx);
  const row = ctx.repos.workflows.get(id);
  if (!row || row.organization_id !== ctx.caller.user.organization_id) throw new ServiceError('not_found', `No workflow ${id}.`);
  return workflowView(ctx, row);
}
