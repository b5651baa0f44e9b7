import OpenAI from 'openai';
import { ServiceError, errorText } from '../../../../shared/errors.js';
import { redactSecrets, sameOrigin } from '../../platform/secrets/redact.js';
import { findModel, type ResolveCtx } from './catalog.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/** An endpoint that does not list its models in this time is reported, not waited for. */
const PROBE_TIMEOUT_MS = 10_000;
/** Enough for any provider's catalogue; a longer list is cut (the form offers these to pick from). */
const MAX_IDS = 500;

/**
 * The key to send: the one typed in, else (editing a model) its stored key, but only to the
 * origin it was given for, the rule overrides follow too: otherwise an admin could send a stored
 * key to any server by probing it there.
 */
function keyFor(ctx: ResolveCtx, input: InputOf<'models.probe'>): string | null {
  if (input.api_key) return input.api_key;
  if (!input.model_id) return null;
  const found = findModel(ctx, input.model_id);
  if (!found) throw new ServiceError('not_found', `No model ${input.model_id}.`);
  const row = found.row;
  if (!row?.api_key_secret) return null;
  return sameOrigin(input.endpoint_url ?? null, row.endpoint_url) ? ctx.runtime.secrets.open(row.api_key_secret) : null;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

/**
 * The model ids an endpoint offers (`GET /v1/models`, through the provider's official SDK), for
 * the add and edit forms to pick from. A failure names the field to fix: the URL when nothing
 * answers there, the key when the endpoint refuses it.
 */
export async function probeModels(ctx: ResolveCtx, input: InputOf<'models.probe'>) {
  if (input.provider === 'openai_compatible' && !input.endpoint_url) {
    throw new ServiceError('invalid_argument', 'An OpenAI-compatible endpoint needs its URL.', [{ path: 'endpoint_url', message: 'is required for openai_compatible models' }]);
  }
  const apiKey = keyFor(ctx, input);
  if (input.provider === 'anthropic' && !apiKey) {
    // The Messages API refuses every request without one; say so before calling.
    throw new ServiceError('unprocessable', 'Anthropic needs an API key to list its models.', [{ path: 'api_key', message: 'is needed by this endpoint' }]);
  }
  const options = { maxRetries: 0, timeout: PROBE_TIMEOUT_MS };
  const ids: string[] = [];
  try {
    if (input.provider === 'anthropic') {
      // Loaded when first needed: the SDK is the largest module of served mode (start-up, test/bench/startup.ts).
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey, ...options, ...(input.endpoint_url ? { baseURL: input.endpoint_url } : {}) });
      for await (const model of client.models.list({ limit: 100 })) if (ids.push(model.id) >= MAX_IDS) break;
    } else {
      const client = new OpenAI({ apiKey: apiKey ?? 'not-needed', baseURL: input.endpoint_url ?? null, ...options });
      for await (const model of client.models.list()) if (ids.push(model.id) >= MAX_IDS) break;
    }
  } catch (error) {
    const status = statusOf(error);
    const message = redactSecrets(errorText(error), [apiKey]);
    if (status === 401 || status === 403) {
      throw new ServiceError('unprocessable', `The endpoint refused the API key (${status}).`, [{ path: 'api_key', message: apiKey ? 'was refused by the endpoint' : 'is needed by this endpoint' }]);
    }
    const detail = status === undefined ? `Nothing answered at this URL: ${message}` : `The endpoint answered ${status} when asked for its models: ${message}`;
    throw new ServiceError('unprocessable', detail, [{ path: 'endpoint_url', message: status === undefined ? 'did not answer' : `does not list models (${status})` }]);
  }
  const unique = [...new Set(ids)].sort((a, b) => a.localeCompare(b));
  return { data: unique.map((id) => ({ id })) };
}
