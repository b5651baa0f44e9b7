import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice } from '../../platform/context.js';
import { findModel, type CatalogCtx } from './catalog.js';
import { LocalModelError } from '../local/engine.js';
import { findServers, sameEndpoint } from '../local/servers.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';

/** Files found on this machine and running Ollama / LM Studio servers, with whether each is registered. */
export async function discoveredModels(ctx: AuthedSlice<'repos' | 'config', 'local'>) {
  const cfg = ctx.config().local_models;
  const [files, servers] = await Promise.all([ctx.runtime.local.refresh(), cfg.detect_servers ? findServers(cfg) : Promise.resolve([])]);
  const rows = ctx.repos.models.list(ctx.caller.user.organization_id);
  return {
    data: [
      ...servers.map((s) => ({ source: s.source, name: s.name, endpoint_url: s.endpoint_url, models: s.models, registered: rows.some((r) => sameEndpoint(r.endpoint_url, s.endpoint_url)) })),
      ...files.map((f) => {
        const row = rows.find((r) => r.provider === 'llama_cpp' && r.model === f.path);
        return { source: 'file' as const, name: f.name, path: f.path, size_bytes: f.size_bytes, model_id: row?.id ?? f.id, registered: true };
      }),
    ],
  };
}

/** The local model `id` and its file, or a clear 4xx. */
function localTarget(ctx: CatalogCtx, id: string) {
  const found = findModel(ctx, id);
  if (!found) throw new ServiceError('not_found', `No model ${id}.`);
  if (found.model.provider !== 'llama_cpp' || !found.path) throw new ServiceError('invalid_argument', `${found.model.name} is not a local model: only local models are loaded and unloaded.`);
  const file = ctx.runtime.local.byPath(found.path);
  if (!file) throw new ServiceError('conflict', `The file of ${found.model.name} is gone (moved or deleted).`);
  if (!file.header) throw new ServiceError('unprocessable', file.error ?? 'This file is not a GGUF model.');
  return { path: found.path, header: file.header };
}

/** Loads a local model now; a load that fails leaves the model `failed` with the reason (answered, not thrown). */
export async function loadModel(ctx: CatalogCtx, input: InputOf<'models.load'>) {
  await ctx.runtime.local.refresh();
  const { path, header } = localTarget(ctx, input.id);
  try {
    await ctx.runtime.local.engine.load(path, header);
  } catch (error) {
    if (!(error instanceof LocalModelError)) throw error;
  }
  return findModel(ctx, input.id)!.model;
}

export async function unloadModel(ctx: CatalogCtx, input: InputOf<'models.unload'>) {
  const { path } = localTarget(ctx, input.id);
  try {
    await ctx.runtime.local.engine.unload(path);
  } catch (error) {
    if (error instanceof LocalModelError && error.kind === 'busy') throw new ServiceError('conflict', error.message);
    throw error;
  }
  return findModel(ctx, input.id)!.model;
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const localModelHandlers: Pick<Handlers, 'models.discovered' | 'models.load' | 'models.unload'> = {
  'models.discovered': discoveredModels,
  'models.load': loadModel,
  'models.unload': unloadModel,
};
