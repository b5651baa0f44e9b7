import { ServiceError } from '../../../../shared/errors.js';
import { Capabilities } from '../../../../shared/operations/models-schema.js';
import type { Model } from '../../../../shared/operations/models.js';
import type { ModelRecord, OverrideRecord } from '../../../db/repositories/models.js';
import type { CandidateModel, ModelHealth } from '../routing/types.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { endpointForAdmin, endpointForMember, sameOrigin } from '../../platform/secrets/redact.js';
import { discoveredSources, localModelView } from '../local/views.js';
import { localFits } from '../local/residency.js';
import { callerIs } from '../../platform/auth/roles.js';
import { modelPurpose } from './purpose.js';

/** What a model's view reads: the caller (admins see paths), the local settings, the local files and the health records. */
export type ModelViewCtx = ContextSlice<'config' | 'caller', 'local' | 'health'>;
/** What listing and finding the caller's models reads: the view's part and the stores. */
export type CatalogCtx = AuthedSlice<'repos' | 'config', 'local' | 'health'>;
/** What resolving a model to call reads: the catalog's part and the secret box that opens its keys. */
export type ResolveCtx = AuthedSlice<'repos' | 'config', 'local' | 'health' | 'secrets'>;

/** The model that ships with Parley and works offline. */
export const EXTRACTIVE_MODEL_ID = 'mdl_extractive';

const BUILTIN: Omit<Model, 'status'>[] = [
  {
    id: EXTRACTIVE_MODEL_ID,
    name: 'Extractive (built-in)',
    kind: 'builtin',
    provider: 'extractive',
    model: 'extractive',
    endpoint_url: null,
    base_model: null,
    capabilities: Capabilities.parse({ strengths: ['retrieval'], context_tokens: 1_000_000, quality: 2, local: true }),
    has_api_key: false,
    created_at: '2024-05-05T00:00:00.000Z',
  },
];

/** A model with what it takes to call it: the endpoint, the decrypted key and the upstream name. */
export interface ResolvedModel {
  model: Model;
  endpoint_url: string | null;
  api_key: string | null;
  /** Set when a workspace endpoint override answers for the model. */
  override_id: string | null;
}

/**
 * Whether a call or a connection test has reached the model since the service started (or since it
 * was edited): until then `available` only means nothing has gone wrong yet.
 */
export function checkedOf(health: ModelHealth): boolean {
  return health.latency_ewma_ms !== null || health.error_rate > 0 || health.circuit !== 'closed';
}

function statusOf(health: ModelHealth): Model['status'] {
  if (health.circuit === 'open') return 'unavailable';
  return health.circuit === 'half_open' || health.error_rate > 0.5 ? 'degraded' : 'available';
}

/** Admins see an endpoint whole but for its credentials; everyone else its origin at most. */
export function endpointView(ctx: ContextSlice<'caller'>, url: string | null): string | null {
  return callerIs(ctx, 'admin') ? endpointForAdmin(url) : endpointForMember(url);
}

export function modelView(ctx: ModelViewCtx, row: ModelRecord): Model {
  if (row.provider === 'llama_cpp') {
    // Registered by path: `model` holds the file's absolute path.
    const source = { id: row.id, name: row.name, path: row.model, created_at: row.created_at, file: ctx.runtime.local.addedFile(row.model), found_in: 'added' as const, capabilities: row.capabilities };
    return localModelView(ctx, source, statusOf(ctx.runtime.health.health(row.id)));
  }
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    provider: row.provider,
    model: row.model,
    endpoint_url: endpointView(ctx, row.endpoint_url),
    base_model: row.base_model,
    capabilities: row.capabilities,
    status: statusOf(ctx.runtime.health.health(row.id)),
    checked: checkedOf(ctx.runtime.health.health(row.id)),
    has_api_key: row.api_key_secret !== null,
    created_at: row.created_at,
  };
}

const localPathOf = (row: ModelRecord) => (row.provider === 'llama_cpp' ? row.model : null);

/** The GGUF files found on this machine, as models (those also registered by path are listed once). */
function discoveredModels(ctx: ModelViewCtx, rows: ModelRecord[]): Model[] {
  const registered = new Set(rows.map(localPathOf).filter((p): p is string => p !== null));
  return discoveredSources(ctx, registered).map((source) => localModelView(ctx, source, statusOf(ctx.runtime.health.health(source.id))));
}

/**
 * Every model that can answer for the caller: the built-in ones first, then the local files found
 * on this machine, then the ones registered in the caller's organization (another organization's
 * models do not exist for them).
 */
export function allModels(ctx: CatalogCtx): Model[] {
  return modelsOf(ctx, ctx.repos.models.list(ctx.caller.user.organization_id));
}

function modelsOf(ctx: ModelViewCtx, rows: ModelRecord[]): Model[] {
  return [
    ...BUILTIN.map((m) => ({ ...m, status: statusOf(ctx.runtime.health.health(m.id)) })),
    ...discoveredModels(ctx, rows),
    ...rows.map((row) => modelView(ctx, row)),
  ];
}

/**
 * The models chat may route to: the configured embedding model, local embedding models, vision
 * projectors and local models that cannot run (file gone, not GGUF, no llama.cpp here) are left
 * out; everything else is ranked by the router, local ones with whether they are loaded and fit
 * the free memory.
 */
export function chatModels(ctx: CatalogCtx): (Model & CandidateModel)[] {
  // An embedding model (the configured one, a GGUF with pooling, a remote one named so) answers
  // embeddings, not chat: the same rule `/v1` refuses such a model by (models/purpose.ts).
  const rows = ctx.repos.models.list(ctx.caller.user.organization_id);
  const models = modelsOf(ctx, rows).filter((m) => modelPurpose(ctx, m) === 'chat' && m.local?.state !== 'failed');
  // A view shows paths to admins only; routing needs them for everyone.
  const paths = new Map<string, string>(ctx.runtime.local.files().map((f) => [f.id, f.path]));
  for (const row of rows) if (row.provider === 'llama_cpp') paths.set(row.id, row.model);
  const local = models.flatMap((m) => (m.provider === 'llama_cpp' && paths.has(m.id) ? [paths.get(m.id)!] : []));
  const fits = localFits(ctx.runtime.local, local, ctx.config().local_models);
  return models.map((m) => {
    const path = m.provider === 'llama_cpp' ? paths.get(m.id) : undefined;
    const fit = path === undefined ? undefined : fits.get(path);
    return fit ? { ...m, local_fit: fit } : m;
  });
}

export function findModel(ctx: CatalogCtx, id: string): { model: Model; row: ModelRecord | null; path: string | null } | undefined {
  const builtin = BUILTIN.find((m) => m.id === id);
  if (builtin) return { model: { ...builtin, status: statusOf(ctx.runtime.health.health(id)) }, row: null, path: null };
  const row = ctx.repos.models.get(id);
  if (row) return row.organization_id === ctx.caller.user.organization_id ? { model: modelView(ctx, row), row, path: localPathOf(row) } : undefined;
  const file = ctx.runtime.local.byId(id);
  if (!file) return undefined;
  const model = discoveredModels(ctx, ctx.repos.models.list(ctx.caller.user.organization_id)).find((m) => m.id === id);
  return model ? { model, row: null, path: file.path } : undefined;
}

const openSecret = (ctx: ContextSlice<never, 'secrets'>, sealed: Buffer | null) => (sealed ? ctx.runtime.secrets.open(sealed) : null);

/** How to call `modelId` in the caller's workspace: its own endpoint, or the workspace's override. */
export function resolveModel(ctx: ResolveCtx, modelId: string): ResolvedModel {
  const found = findModel(ctx, modelId);
  if (!found) throw new ServiceError('not_found', `No model ${modelId}.`);
  const override = ctx.repos.models.overrideFor(ctx.caller.user.workspace_id, modelId);
  if (override) return withOverride(ctx, found.model, found.row, override);
  // A local model is "reached" at its file: the llama_cpp provider takes the path as its endpoint.
  const endpoint = found.path ?? found.row?.endpoint_url ?? null;
  return { model: found.model, endpoint_url: endpoint, api_key: openSecret(ctx, found.row?.api_key_secret ?? null), override_id: null };
}

/** `ovr_…` → the override of the caller's workspace and the model it answers for. */
export function resolveOverride(ctx: ResolveCtx, overrideId: string): ResolvedModel {
  const override = ctx.repos.models.getOverride(overrideId);
  if (!override || override.workspace_id !== ctx.caller.user.workspace_id) throw new ServiceError('not_found', `No endpoint override ${overrideId} in your workspace.`);
  const found = findModel(ctx, override.model_id);
  if (!found) throw new ServiceError('not_found', `The override ${overrideId} names a model that no longer exists.`);
  return withOverride(ctx, found.model, found.row, override);
}

function withOverride(ctx: ContextSlice<never, 'secrets'>, model: Model, row: ModelRecord | null, override: OverrideRecord): ResolvedModel {
  if (model.provider === 'extractive' || model.provider === 'llama_cpp') throw new ServiceError('invalid_argument', 'Built-in and local models have no endpoint to override.');
  // The model's own key was given for the model's own endpoint: an override elsewhere (another
  // scheme, host or port) never inherits it, or an admin could send a stored key anywhere.
  const inherited = row && sameOrigin(override.endpoint_url, row.endpoint_url) ? openSecret(ctx, row.api_key_secret) : null;
  return {
    model,
    endpoint_url: override.endpoint_url,
    api_key: openSecret(ctx, override.api_key_secret) ?? inherited,
    override_id: override.id,
  };
}

/** The model a `/v1` chat request names: one `/v1/models` lists (404 otherwise) that writes answers (400 for an embedding model). */
export function chatModelNamed(ctx: CatalogCtx, id: string): Model {
  const found = allModels(ctx).find((m) => m.id === id);
  if (!found) throw new ServiceError('not_found', `No model ${id}; GET /v1/models lists them, and "auto" routes automatically.`);
  if (modelPurpose(ctx, found) === 'embedding') {
    throw new ServiceError('invalid_argument', `${id} is an embedding model: it answers POST /v1/embeddings, not chat. GET /v1/models lists the chat models.`, [{ path: 'model', message: 'an embedding model' }]);
  }
  return found;
}
