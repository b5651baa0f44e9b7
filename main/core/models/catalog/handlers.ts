import { ServiceError, errorText } from '../../../../shared/errors.js';
import { Capabilities } from '../../../../shared/operations/models-schema.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { allModels, findModel, modelView, resolveModel, type CatalogCtx, type ResolveCtx } from './catalog.js';
import { redactSecrets, sameOrigin } from '../../platform/secrets/redact.js';
import { checkModelPath } from '../local/model-path.js';
import { localCapabilities } from '../local/views.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';
import { probeModels } from './probe.js';
import { deleteOverride, listOverrides, putOverride } from './overrides.js';

export async function listModels(ctx: CatalogCtx) {
  // A file dropped into a models folder is listed at the next listing.
  await ctx.runtime.local.refresh();
  return { data: allModels(ctx) };
}

export async function createModel(ctx: AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets'>, input: InputOf<'models.create'>) {
  const id = newId('mdl');
  let name = input.name;
  let model = input.model;
  let capabilities = input.capabilities;
  if (input.provider === 'llama_cpp') {
    // A GGUF file from anywhere, used where it lies: `model` keeps its path.
    const file = await checkModelPath(ctx, input.model_path ?? '');
    await ctx.runtime.local.add(file.path);
    name ??= file.name;
    model = file.path;
    capabilities = { ...localCapabilities(ctx, file), ...capabilities };
  }
  if (!name || !model) throw new ServiceError('invalid_argument', 'name and model are required.');
  ctx.repos.models.insert({
    id,
    organization_id: ctx.caller.user.organization_id,
    name,
    kind: input.base_model ? 'fine_tuned' : 'third_party',
    provider: input.provider,
    model,
    endpoint_url: input.endpoint_url ?? null,
    base_model: input.base_model ?? null,
    capabilities: Capabilities.parse({ ...(input.provider === 'llama_cpp' ? { local: true } : {}), ...capabilities }),
    api_key_secret: input.api_key ? ctx.runtime.secrets.seal(input.api_key) : null,
    created_by: ctx.caller.user.id,
    created_at: isoNow(ctx),
  });
  const row = ctx.repos.models.get(id);
  if (!row) throw new Error(`model ${id} vanished after insert`);
  return modelView(ctx, row);
}

export function updateModel(ctx: ResolveCtx, input: InputOf<'models.update'>) {
  const found = findModel(ctx, input.id);
  if (!found) throw new ServiceError('not_found', `No model ${input.id}.`);
  const row = found.row;
  if (!row) throw new ServiceError('conflict', 'Built-in models cannot be edited.');
  const endpoint = input.endpoint_url === undefined ? row.endpoint_url : input.endpoint_url;
  if (row.provider === 'openai_compatible' && !endpoint) {
    throw new ServiceError('invalid_argument', 'An OpenAI-compatible model needs an endpoint URL.', [{ path: 'endpoint_url', message: 'is required for openai_compatible models' }]);
  }
  // A stored key was given for its endpoint's origin: moved elsewhere without a new key, it is
  // dropped, or editing the URL would send the key to any server (the rule overrides follow too).
  const keptKey = sameOrigin(endpoint, row.endpoint_url) ? row.api_key_secret : null;
  const capabilities = input.capabilities ? Capabilities.parse({ ...row.capabilities, ...input.capabilities }) : row.capabilities;
  ctx.repos.models.update({
    id: row.id,
    name: input.name ?? row.name,
    endpoint_url: endpoint,
    model: input.model ?? row.model,
    capabilities,
    api_key_secret: input.api_key === undefined ? keptKey : input.api_key === null ? null : ctx.runtime.secrets.seal(input.api_key),
  });
  // Another endpoint or model is another thing to call: what was observed of the old one does not apply.
  ctx.runtime.health.forget(row.id);
  return modelView(ctx, ctx.repos.models.get(row.id) as NonNullable<ReturnType<typeof ctx.repos.models.get>>);
}

export function deleteModel(ctx: CatalogCtx, input: InputOf<'models.delete'>): null {
  const found = findModel(ctx, input.id);
  if (!found) throw new ServiceError('not_found', `No model ${input.id}.`);
  if (!found.row) {
    throw new ServiceError('conflict', found.path ? 'Models found on this machine are listed while their file is there: remove the file (or its folder from [local_models] search_paths).' : 'Built-in models cannot be removed.');
  }
  ctx.repos.models.delete(input.id);
  return null;
}

const TEST_TIMEOUT_MS = 20_000;

/** A one-token request through the same provider path chat uses, in the caller's workspace. */
export async function testModel(ctx: AuthedSlice<'repos' | 'config', 'local' | 'health' | 'secrets' | 'providers'>, input: InputOf<'models.test'>) {
  const resolved = resolveModel(ctx, input.id);
  const started = performance.now();
  const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
  try {
    const stream = ctx.runtime.providers[resolved.model.provider].stream({
      model: resolved.model.model,
      endpoint_url: resolved.endpoint_url,
      api_key: resolved.api_key,
      messages: [{ role: 'user', content: 'Reply with one word: ok' }],
      passages: [],
      has_datasets: false,
      signal,
      max_tokens: 1,
    });
    for await (const event of stream) if (event.type === 'delta') break;
    const latency_ms = Math.round(performance.now() - started);
    // The test's outcome is health: a model that fails it is shown unavailable and not routed to until one passes.
    ctx.runtime.health.recordTest(resolved.model.id, !signal.aborted, latency_ms);
    return { ok: !signal.aborted, latency_ms, detail: signal.aborted ? `No answer within ${TEST_TIMEOUT_MS / 1000} s.` : `Answered in ${latency_ms} ms.` };
  } catch (error) {
    const latency_ms = Math.round(performance.now() - started);
    ctx.runtime.health.recordTest(resolved.model.id, false, latency_ms);
    return { ok: false, latency_ms, detail: redactSecrets(errorText(error), [resolved.api_key]) };
  }
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const modelHandlers: Pick<Handlers, 'models.list' | 'models.create' | 'models.probe' | 'models.update' | 'models.delete' | 'models.test' | 'overrides.list' | 'overrides.put' | 'overrides.delete'> = {
  'models.list': listModels,
  'models.create': createModel,
  'models.probe': probeModels,
  'models.update': updateModel,
  'models.delete': deleteModel,
  'models.test': testModel,
  'overrides.list': listOverrides,
  'overrides.put': putOverride,
  'overrides.delete': deleteOverride,
};
