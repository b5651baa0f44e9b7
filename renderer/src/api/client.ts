import { ServiceError } from '../../../shared/errors.js';
import { operations, type InputOf, type OperationName, type Operations, type OutputOf } from '../../../shared/operations/index.js';
import type { Transport } from './transport.js';

export interface Client {
  /** Calls an operation of the registry; rejects with a `ServiceError` whatever the transport. */
  call<K extends OperationName>(name: K, input: InputOf<Operations[K]>): Promise<OutputOf<Operations[K]>>;
}

/**
 * The typed client over any transport. Answers are parsed by the operation's output schema: that is
 * what makes the static type true at run time, and a contract drift fails here, loudly, not in a view.
 */
export function createClient(transport: Transport): Client {
  return {
    async call(name, input) {
      const raw = await transport.invoke(name, input);
      const parsed = operations[name].output.safeParse(raw);
      if (!parsed.success) {
        throw new ServiceError('internal', `The service's answer to ${name} does not match the contract: ${parsed.error.issues[0]?.message ?? 'unknown shape'}.`);
      }
      return parsed.data as OutputOf<Operations[typeof name]>;
    },
  };
}
