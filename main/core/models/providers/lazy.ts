import type { AgentTurnRequest, Provider, ProviderRequest } from '../../platform/ports/providers.js';

/**
 * A provider whose module (and SDK) is loaded at its first use rather than at start: the Anthropic
 * SDK alone is over a fifth of served mode's bundle, and compiling it cost start-up time that
 * no first request needs (test/bench/startup.ts). The first answer through it waits for the load once.
 */
export function lazyProvider(load: () => Promise<Provider>): Required<Provider> {
  let loaded: Promise<Provider> | undefined;
  const provider = () => (loaded ??= load());
  return {
    async *stream(request: ProviderRequest) {
      yield* (await provider()).stream(request);
    },
    async *agentTurn(request: AgentTurnRequest) {
      const p = await provider();
      if (!p.agentTurn) throw new Error('This provider cannot call tools');
      yield* p.agentTurn(request);
    },
  };
}
