import type { z } from 'zod';
import { ServiceError } from '../../../../shared/errors.js';
import type { ModelOverride } from '../../../../shared/operations/models.js';
import type { OverrideRecord } from '../../../db/repositories/models.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { endpointView, findModel, type CatalogCtx } from './catalog.js';
import { sameOrigin } from '../../platform/secrets/redact.js';
import type { InputOf } from '../../platform/operation-handlers.js';

function overrideView(ctx: ContextSlice<'caller'>, row: OverrideRecord): z.input<typeof ModelOverride> {
  const { id, workspace_id, model_id, created_at, updated_at } = row;
  return { id, workspace_id, model_id, endpoint_url: endpointView(ctx, row.endpoint_url) ?? '', has_api_key: row.api_key_secret !== null, created_at, updated_at };
}

/** Callers reach only their own workspace's overrides. */
function ownWorkspace(ctx: AuthedSlice, workspaceId: string): void {
  if (workspaceId !== ctx.caller.user.workspace_id) throw new ServiceError('not_found', `No workspace ${workspaceId} of yours.`);
}

export function listOverrides(ctx: CatalogCtx, input: InputOf<'overrides.list'>) {
  ownWorkspace(ctx, input.workspace_id);
  // Another organization's models are not listed, nor are overrides of them.
  return { data: ctx.repos.models.listOverrides(input.workspace_id).filter((o) => findModel(ctx, o.model_id)).map((o) => overrideView(ctx, o)) };
}

export function putOverride(ctx: AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets'>, input: InputOf<'overrides.put'>) {
  ownWorkspace(ctx, input.workspace_id);
  const found = findModel(ctx, input.model_id);
  if (!found) throw new ServiceError('not_found', `No model ${input.model_id}.`);
  if (found.model.provider === 'extractive') throw new ServiceError('invalid_argument', 'The built-in model runs in Parley and has no endpoint to override.');
  // A key stored for one origin never follows the override to another.
  const previous = ctx.repos.models.overrideFor(input.workspace_id, input.model_id);
  const row = ctx.repos.models.putOverride({
    id: newId('ovr'),
    workspace_id: input.workspace_id,
    model_id: input.model_id,
    endpoint_url: input.endpoint_url,
    api_key_secret: input.api_key ? ctx.runtime.secrets.seal(input.api_key) : null,
    keep_key: previous !== undefined && sameOrigin(previous.endpoint_url, input.endpoint_url),
    now: isoNow(ctx),
  });
  if (!row) throw new Error('override vanished after upsert');
  return overrideView(ctx, row);
}

export function deleteOverride(ctx: AuthedSlice<'repos'>, input: InputOf<'overrides.delete'>): null {
  ownWorkspace(ctx, input.workspace_id);
  if (!ctx.repos.models.deleteOverride(input.workspace_id, input.model_id)) {
    throw new ServiceError('not_found', `No override of ${input.model_id} in this workspace.`);
  }
  return null;
}
