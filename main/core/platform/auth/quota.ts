import { ServiceError } from '../../../../shared/errors.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { Caller, Runtime } from '../context.js';
import { ProviderError, type Provider, type Providers } from '../ports/providers.js';

/**
 * A trial's quota ran out in the middle of work (an agent's next step, a comparison's next model).
 * Not the model's fault: failover and health tracking let it through untouched.
 */
export class QuotaExhausted extends ProviderError {
  constructor(quota: number) {
    super('rate_limited', `This trial has used its quota of ${quota} model call${quota === 1 ? '' : 's'}; ask an admin for more.`, 429);
    this.name = 'QuotaExhausted';
  }
}

/** Refuses an operation that would call a model once the caller's trial quota is spent (429 before anything starts). */
export function ensureQuotaLeft(repos: Repositories, caller: Caller | null): void {
  if (!caller?.trialTokenId) return;
  const token = repos.credentials.getUserToken(caller.trialTokenId);
  if (token && token.quota !== null && token.used >= token.quota) {
    throw new ServiceError('rate_limited', new QuotaExhausted(token.quota).message);
  }
}

function spendOrThrow(repos: Repositories, tokenId: string): void {
  if (repos.credentials.spendUserToken(tokenId)) return;
  throw new QuotaExhausted(repos.credentials.getUserToken(tokenId)?.quota ?? 0);
}

/**
 * Spends one model call of a trial caller's quota for a call made outside the providers (`/v1`
 * embeddings); 429 once it is spent. Other callers spend nothing.
 */
export function spendModelCall(repos: Repositories, caller: Caller | null): void {
  if (!caller?.trialTokenId) return;
  try {
    spendOrThrow(repos, caller.trialTokenId);
  } catch (error) {
    if (error instanceof QuotaExhausted) throw new ServiceError('rate_limited', error.message);
    throw error;
  }
}

function metered(provider: Provider, spend: () => void): Provider {
  const wrapped: Provider = {
    ...provider,
    async *stream(request) {
      spend();
      yield* provider.stream(request);
    },
  };
  if (provider.agentTurn) {
    const turn = provider.agentTurn.bind(provider);
    wrapped.agentTurn = async function* (request) {
      spend();
      yield* turn(request);
    };
  }
  return wrapped;
}

/**
 * The runtime a trial caller's work runs with: every model call — a chat answer, each agent step,
 * each model of a comparison, a `/v1` completion — spends one unit of the token's quota first. Page
 * reads call no model and so spend nothing. Other callers get the runtime as it is.
 */
export function meteredRuntime<R extends Pick<Runtime, 'providers'>>(runtime: R, repos: Repositories, caller: Caller | null): R {
  const tokenId = caller?.trialTokenId;
  if (!tokenId) return runtime;
  const spend = () => spendOrThrow(repos, tokenId);
  const providers = Object.fromEntries(Object.entries(runtime.providers).map(([name, p]) => [name, metered(p, spend)])) as Providers;
  return { ...runtime, providers };
}
