import { ServiceError } from '../../../../shared/errors.js';
import { SIMPLE_CHAT_WORKFLOW_ID, type Workflow } from '../../../../shared/operations/workflows.js';
import type { WorkflowRecord } from '../../../db/repositories/workflows.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { resolveModel, resolveOverride, type ResolveCtx } from '../../models/catalog/catalog.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { findWorkflow, workflowView, type WorkflowCtx } from './lookup.js';
import { simpleChat } from './builtin.js';
import { callerIs } from '../../platform/auth/roles.js';
import type { HandlersFor, InputOf } from '../../platform/operation-handlers.js';

/** What storing a workflow uses: the stores, the clock, and the models it may name (resolved to check they exist). */
type WorkflowEditCtx = AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets'>;

const isAdmin = (ctx: AuthedSlice) => callerIs(ctx, 'admin');

/** A stored (not built-in) workflow an admin may change. */
function editable(ctx: WorkflowCtx, id: string): WorkflowRecord {
  if (id === SIMPLE_CHAT_WORKFLOW_ID) {
    throw new ServiceError('conflict', 'Simple Chat is built in: turn it on or off with `[features] simple_chat` in the configuration.');
  }
  findWorkflow(ctx, id);
  const row = ctx.repos.workflows.get(id);
  if (!row) throw new ServiceError('not_found', `No workflow ${id}.`);
  return row;
}

/** The model a workflow names must exist now (it may vanish later: a chat then says so). */
function assertTarget(ctx: ResolveCtx, target: string | null | undefined): void {
  if (!target) return;
  if (target.startsWith('ovr_')) resolveOverride(ctx, target);
  else resolveModel(ctx, target);
}

function assertFreeName(ctx: AuthedSlice<'repos'>, name: string | undefined, self?: string): void {
  if (name === undefined) return;
  const taken = ctx.repos.workflows.getByName(ctx.caller.user.organization_id, name);
  if ((taken && taken.id !== self) || name.toLowerCase() === 'simple chat') throw new ServiceError('conflict', `A workflow named ${JSON.stringify(name)} already exists.`, [{ path: 'name', message: 'already exists' }]);
}

export function createWorkflow(ctx: WorkflowEditCtx, input: InputOf<'workflows.create'>): Workflow {
  assertFreeName(ctx, input.name);
  assertTarget(ctx, input.model_endpoint_override);
  assertDatasets(ctx, input.dataset_ids);
  const id = newId('wf');
  ctx.repos.workflows.insert({
    id,
    organization_id: ctx.caller.user.organization_id,
    name: input.name,
    description: input.description || null,
    system_prompt: input.system_prompt,
    model_endpoint_override: input.model_endpoint_override ?? null,
    agentic: input.agentic,
    active: input.active,
    dataset_ids: [...new Set(input.dataset_ids)],
    created_by: ctx.caller.user.id,
    now: isoNow(ctx),
  });
  return findWorkflow(ctx, id);
}

/** Active workflows for everyone; admins may ask for the inactive ones too. */
export function listWorkflows(ctx: WorkflowCtx, input: InputOf<'workflows.list'>): { data: Workflow[] } {
  if (input.include_inactive && !isAdmin(ctx)) throw new ServiceError('forbidden', 'Only admins may list inactive workflows.');
  const all = [simpleChat(ctx), ...ctx.repos.workflows.list(ctx.caller.user.organization_id).map((row) => workflowView(ctx, row))];
  return { data: input.include_inactive ? all : all.filter((w) => w.active) };
}

export function updateWorkflow(ctx: WorkflowEditCtx, input: InputOf<'workflows.update'>): Workflow {
  editable(ctx, input.id);
  assertFreeName(ctx, input.name, input.id);
  assertTarget(ctx, input.model_endpoint_override);
  assertDatasets(ctx, input.dataset_ids);
  const { id, dataset_ids, description, ...fields } = input;
  ctx.repos.workflows.update(
    id,
    { ...fields, ...(description === undefined ? {} : { description: description || null }), ...(dataset_ids ? { dataset_ids: [...new Set(dataset_ids)] } : {}) },
    isoNow(ctx),
  );
  return findWorkflow(ctx, id);
}

export function deleteWorkflow(ctx: WorkflowCtx, input: InputOf<'workflows.delete'>): null {
  editable(ctx, input.id);
  ctx.repos.workflows.delete(input.id);
  return null;
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const workflowHandlers: HandlersFor<'workflows'> = {
  'workflows.create': createWorkflow,
  'workflows.list': listWorkflows,
  'workflows.update': updateWorkflow,
  'workflows.delete': deleteWorkflow,
};
