import { ServiceError } from '../../../../shared/errors.js';
import type { Workflow } from '../../../../shared/operations/workflows.js';
import type { ThreadRecord } from '../../../db/repositories/threads.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { findWorkflow, type WorkflowCtx } from './lookup.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/**
 * The workflow a request names: it must be one of the organization's and active now. Checked before
 * anything is stored, so a refused chat leaves no thread behind.
 */
export function requestedWorkflow(ctx: WorkflowCtx, id: string | null | undefined): Workflow | null {
  if (!id) return null;
  const workflow = findWorkflow(ctx, id);
  if (!workflow.active) throw new ServiceError('conflict', `The workflow “${workflow.name}” (${id}) is not active; ask an admin to activate it or choose another.`);
  return workflow;
}

/** The active workflow a thread remembers; one deactivated or deleted since is left out, and the chat goes on without it. */
function rememberedWorkflow(ctx: WorkflowCtx, thread: ThreadRecord): Workflow | null {
  if (!thread.workflow_id) return null;
  try {
    return requestedWorkflow(ctx, thread.workflow_id);
  } catch {
    return null;
  }
}

/** The parts of a chat request a workflow fills in (the chat's own request type has these and more). */
export type WorkflowFilled = Pick<InputOf<'chat.send'>, 'dataset_ids' | 'agentic' | 'model_endpoint_override' | 'workflow_id'>;

/**
 * Applies a chat's workflow: the one the request names (then remembered by the thread) or the one the
 * thread remembers. Its system prompt comes first, before the thread's own; its model, datasets and
 * agentic mode fill in what the request leaves out (a request's own choice wins; the thread's
 * datasets win over the workflow's).
 */
export function applyWorkflow<R extends WorkflowFilled>(ctx: AuthedSlice<'repos' | 'config' | 'now'>, thread: ThreadRecord, request: R, requested: Workflow | null): { input: R; systemPrompt: string | null } {
  if (requested && thread.workflow_id !== requested.id) ctx.repos.threads.update(thread.id, { workflow_id: requested.id }, isoNow(ctx));
  const workflow = requested ?? rememberedWorkflow(ctx, thread);
  if (!workflow) return { input: request, systemPrompt: thread.system_prompt };
  const useWorkflowDatasets = request.dataset_ids === undefined && workflow.dataset_ids.length > 0 && ctx.repos.threads.datasetIds(thread.id).length === 0;
  return {
    input: {
      ...request,
      workflow_id: workflow.id,
      agentic: request.agentic || workflow.agentic,
      model_endpoint_override: request.model_endpoint_override ?? workflow.model_endpoint_override ?? undefined,
      dataset_ids: useWorkflowDatasets ? workflow.dataset_ids : request.dataset_ids,
    },
    systemPrompt: [workflow.system_prompt, thread.system_prompt].filter(Boolean).join('\n\n'),
  };
}
