import OpenAI from 'openai';
import { ServiceError } from '../../../../shared/errors.js';
import type { EmbeddingsRequest } from '../../../../shared/openai-embeddings.js';
import { spendModelCall } from '../../platform/auth/quota.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { LocalModelError } from '../local/engine.js';
import { allModels, resolveModel, type ResolvedModel } from '../catalog/catalog.js';
import { modelPurpose } from '../catalog/purpose.js';
import { estimateTokens } from '../../platform/tokens.js';
import { clientCache } from '../providers/client-cache.js';
import { redactSecrets } from '../../platform/secrets/redact.js';

/** One SDK client (and connection pool) per endpoint and key, as the chat providers keep them. */
const remoteClient = clientCache((baseURL, apiKey) => new OpenAI({ baseURL, apiKey: apiKey ?? 'not-needed', maxRetries: 1, timeout: 60_000 }));

/** Vectors in the order of the inputs, and what the model counted. */
export interface Embeddings {
  /** The Parley model id that embedded. */
  model: string;
  vectors: number[][];
  prompt_tokens: number;
}

const onModel = (detail: string) => new ServiceError('invalid_argument', detail, [{ path: 'model', message: detail }]);

/**
 * `POST /v1/embeddings`: text → vectors with a local GGUF embedding model (llama.cpp, the pool
 * datasets are embedded with) or a registered remote one (its OpenAI-compatible `/embeddings`).
 * Raw text, no task prefixes: a client that wants them writes them, as with any OpenAI server.
 * Counted like a `/v1` completion: one model call of a trial's quota, usage recorded as `openai`.
 */
export async function createEmbeddings(ctx: AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets' | 'lifecycle'>, request: EmbeddingsRequest, signal: AbortSignal): Promise<Embeddings> {
  const texts = request.input;
  if (request.model === 'auto') throw onModel('"auto" routes chat answers; name an embedding model (GET /v1/models marks them "type": "embeddings").');
  const found = allModels(ctx).find((m) => m.id === request.model);
  if (!found) throw new ServiceError('not_found', `No model ${request.model}; GET /v1/models lists them.`, [{ path: 'model', message: 'no such model' }]);
  if (modelPurpose(ctx, found) !== 'embedding') {
    throw onModel(`${found.name} (${found.id}) is a chat model and makes no embeddings; GET /v1/models marks embedding models "type": "embeddings".`);
  }
  spendModelCall(ctx.repos, ctx.caller);
  const resolved = resolveModel(ctx, found.id);
  let tokens: number | null = null;
  const work = (async () => {
    if (found.provider === 'llama_cpp') return embedLocally(ctx, resolved, texts, request.dimensions);
    const remote = await embedRemotely(resolved, texts, request, signal);
    tokens = remote.prompt_tokens;
    return remote.vectors;
  })();
  const counted = () => tokens ?? estimateTokens(texts.join('\n'));
  try {
    // Shutdown waits for a call under way, as it does for an answer.
    const vectors = await ctx.runtime.lifecycle.track(work);
    return { model: found.id, vectors, prompt_tokens: counted() };
  } finally {
    ctx.repos.usage.record({ user_id: ctx.caller.user.id, model_id: found.id, source: 'openai', message_id: null, input_tokens: counted(), output_tokens: 0, created_at: isoNow(ctx) });
  }
}

async function embedLocally(ctx: ContextSlice<never, 'local'>, resolved: ResolvedModel, texts: string[], dimensions: number | undefined): Promise<number[][]> {
  const path = resolved.endpoint_url;
  const header = path ? ctx.runtime.local.byPath(path)?.header : undefined;
  if (!path || !header) throw new ServiceError('unavailable', `The file of ${resolved.model.name} cannot be read any more; GET /api/models says why.`);
  let vectors: number[][];
  try {
    vectors = await ctx.runtime.local.engine.embed(path, header, texts);
  } catch (error) {
    if (error instanceof LocalModelError) throw new ServiceError('unavailable', `${resolved.model.name}: ${error.message}`);
    throw error;
  }
  const size = vectors[0]?.length ?? 0;
  // A GGUF gives vectors of its own size; cutting them would only be meaningful for models trained so.
  if (dimensions !== undefined && dimensions !== size) {
    throw new ServiceError('invalid_argument', `${resolved.model.name} gives vectors of ${size} dimensions; leave dimensions out or send ${size}.`, [{ path: 'dimensions', message: `must be ${size}` }]);
  }
  return vectors;
}

async function embedRemotely(resolved: ResolvedModel, texts: string[], request: EmbeddingsRequest, signal: AbortSignal): Promise<{ vectors: number[][]; prompt_tokens: number | null }> {
  if (!resolved.endpoint_url) throw new ServiceError('unavailable', `${resolved.model.name} has no endpoint to call.`);
  // The same official SDK datasets are embedded through (retrieval/embedder.ts).
  const client = remoteClient(resolved.endpoint_url, resolved.api_key);
  let res: OpenAI.CreateEmbeddingResponse;
  try {
    res = await client.embeddings.create(
      {
        model: resolved.model.model,
        input: texts,
        encoding_format: 'float',
        ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
        ...(request.user === undefined ? {} : { user: request.user }),
      },
      { signal },
    );
  } catch (error) {
    throw upstreamFailure(resolved, error);
  }
  const data = [...(res.data ?? [])].sort((a, b) => a.index - b.index);
  const vectors = data.map((d) => d.embedding);
  if (vectors.length !== texts.length || !vectors.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
    throw new ServiceError('upstream_error', `${resolved.model.name}'s server answered ${vectors.length} vectors for ${texts.length} texts.`);
  }
  return { vectors, prompt_tokens: typeof res.usage?.prompt_tokens === 'number' ? res.usage.prompt_tokens : null };
}

/**
 * The upstream's refusal of what the client sent (a bad `dimensions`) is the client's 400; anything
 * else is the server's 502. Upstream text can echo what it was sent (keys): redacted, as the chat
 * providers' errors are.
 */
function upstreamFailure(resolved: ResolvedModel, error: unknown): ServiceError {
  const failure = describeFailure(resolved.model.name, error);
  return new ServiceError(failure.code, redactSecrets(failure.detail));
}

function describeFailure(name: string, error: unknown): { code: 'invalid_argument' | 'rate_limited' | 'upstream_error'; detail: string } {
  if (error instanceof OpenAI.APIError && (error.status === 400 || error.status === 422)) {
    return { code: 'invalid_argument', detail: `${name}'s server refused the request: ${error.message}` };
  }
  if (error instanceof OpenAI.APIError && error.status === 429) return { code: 'rate_limited', detail: `${name}'s server is rate limiting: ${error.message}` };
  const why = error instanceof OpenAI.APIError && error.status !== undefined ? `answered ${error.status}` : error instanceof Error ? error.message : 'failed';
  return { code: 'upstream_error', detail: `${name}'s server could not embed (${why}).` };
}
