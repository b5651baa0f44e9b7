import { ServiceError } from '../../../shared/errors.js';
import { Capabilities } from '../../../shared/operations/models-schema.js';
import type { AuthedContext } from '../context.js';
import { isoNow } from '../context.js';
import { newId } from '../ids.js';
import { allModels, findModel, modelView, resolveModel } from './catalog.js';
import { redactSecrets } from '../secrets/redact.js';

type CreateModel = {
  name: string;
  provider: 'openai_compatible' | 'anthropic' | 'llama_cpp';
  endpoint_url?: string | undefined;
  api_key?: string | undefined;
  model: string;
  base_model?: string | undefined;
  capabilities?: Partial<Capabilities> | undefined;
};

export function listModels(ctx: AuthedContext) {
  return { data: allModels(ctx) };
}

export function createModel(ctx: AuthedContext, input: CreateModel) {
  const id = newId('mdl');
  ctx.repos.models.insert({
    id,
    organization_id: ctx.caller.user.organization_id,
    name: input.name,
    kind: input.base_model ? 'fine_tuned' : 'third_party',
    provider: input.provider,
    model: input.model,
    endpoint_url: input.endpoint_url ?? null,
    base_model: input.base_model ?? null,
    capabilities: JSON.stringify(Capabilities.parse({ ...(input.provider === 'llama_cpp' ? { local: true } : {}), ...input.capabilities })),
    api_key_secret: input.api_key ? ctx.runtime.secrets.seal(input.api_key) : null,
    created_by: ctx.caller.user.id,
    created_at: isoNow(ctx),
  });
  const row = ctx.repos.models.get(id);
  if (!row) throw new Error(`model ${id} vanished after insert`);
  return modelView(ctx, row);
}

export function deleteModel(ctx: AuthedContext, input: { id: string }): null {
  const found = findModel(ctx, input.id);
  if (!found) throw new ServiceError('not_found', `No model ${input.id}.`);
  if (!found.row) throw new ServiceError('conflict', 'Built-in models cannot be removed.');
  ctx.repos.models.delete(input.id);
  return null;
}

const TEST_TIMEOUT_MS = 20_000;

/** A one-token request through the same provider path chat uses, in the caller's workspace. */
export async function testModel(ctx: AuthedContext, input: { id: string }) {
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
    return { ok: !signal.aborted, latency_ms, detail: signal.aborted ? `No answer within ${TEST_TIMEOUT_MS / 1000} s.` : `Answered in ${latency_ms} ms.` };
  } catch (error) {
    const detail = redactSecrets(error instanceof Error ? error.message : String(error), [resolved.api_key]);
    return { ok: false, latency_ms: Math.round(performance.now() - started), detail };
  }
}
