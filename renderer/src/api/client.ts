import type { z } from 'zod';
import { ServiceError } from '../../../shared/errors.js';
import type { SequencedEvent } from '../../../shared/events.js';
import { operations, type InputOf, type OperationName, type Operations, type OutputOf, type Streaming } from '../../../shared/operations/index.js';
import type { StreamOptions, Transport } from './transport.js';

/** The operations that stream chat events. */
export type ChatStreamOperation = 'chat.send' | 'chat.stream' | 'chat.regenerate' | 'chat.edit' | 'chat.continue';

export type ChatStreamSignal = { type: 'event'; event: SequencedEvent } | { type: 'end' } | { type: 'error'; error: ServiceError };

/** Every operation that can stream. */
export type StreamingOperation = { [K in OperationName]: Operations[K]['streaming'] extends Streaming ? K : never }[OperationName];

/** One event of `K`'s stream, parsed by its contract, with its sequence number. */
export type StreamEventOf<K extends StreamingOperation> = z.output<NonNullable<Operations[K]['streaming']>['event']> & { id: number };

export type StreamSignalOf<K extends StreamingOperation> = { type: 'event'; event: StreamEventOf<K> } | { type: 'end' } | { type: 'error'; error: ServiceError };

export interface Client {
  /** Calls an operation of the registry; rejects with a `ServiceError` whatever the transport. */
  call<K extends OperationName>(name: K, input: InputOf<Operations[K]>): Promise<OutputOf<Operations[K]>>;
  /**
   * Opens a chat stream: each event parsed by the contract's schema, then one `end` or `error`.
   * Answers `close()`, which stops listening.
   */
  streamChat<K extends ChatStreamOperation>(name: K, input: InputOf<Operations[K]>, options: StreamOptions, onSignal: (signal: ChatStreamSignal) => void): () => void;
  /** Sends one part of a signed upload; rejects with a `ServiceError` whatever the transport. */
  uploadPart(url: string, bytes: Blob): Promise<void>;
  /** Opens any operation's stream (a model comparison, …), each event parsed by that operation's event schema. */
  stream<K extends StreamingOperation>(name: K, input: InputOf<Operations[K]>, options: StreamOptions, onSignal: (signal: StreamSignalOf<K>) => void): () => void;
}

function asServiceError(error: Error): ServiceError {
  return error instanceof ServiceError ? error : new ServiceError('internal', error.message);
}

/**
 * The typed client over any transport. Answers are parsed by the operation's output schema: that is
 * what makes the static type true at run time, and a contract drift fails here, loudly, not in a view.
 */
export function createClient(transport: Transport): Client {
  const stream: Client['stream'] = (name, input, options, onSignal) => {
    const schema = operations[name].streaming.event;
    let finished = false;
    let close: () => void = () => undefined;
    const finish = (signal: StreamSignalOf<typeof name>) => {
      if (finished) return;
      finished = true;
      close();
      onSignal(signal);
    };
    close = transport.stream(name, input, options, (signal) => {
      if (finished) return;
      if (signal.type === 'end') return finish({ type: 'end' });
      if (signal.type === 'error') return finish({ type: 'error', error: asServiceError(signal.error) });
      const parsed = schema.safeParse(signal.event);
      if (!parsed.success) {
        return finish({ type: 'error', error: new ServiceError('internal', `A ${name} event does not match the contract: ${parsed.error.issues[0]?.message ?? 'unknown shape'}.`) });
      }
      onSignal({ type: 'event', event: { ...(parsed.data as object), id: signal.id } as StreamEventOf<typeof name> });
    });
    if (finished) close();
    return () => {
      finished = true;
      close();
    };
  };

  return {
    async call(name, input) {
      const raw = await transport.invoke(name, input);
      const parsed = operations[name].output.safeParse(raw);
      if (!parsed.success) {
        throw new ServiceError('internal', `The service's answer to ${name} does not match the contract: ${parsed.error.issues[0]?.message ?? 'unknown shape'}.`);
      }
      return parsed.data as OutputOf<Operations[typeof name]>;
    },
    async uploadPart(url, bytes) {
      try {
        await transport.uploadPart(url, bytes);
      } catch (error) {
        throw asServiceError(error instanceof Error ? error : new Error(String(error)));
      }
    },
    streamChat(name, input, options, onSignal) {
      return stream(name, input, options, onSignal as (signal: StreamSignalOf<typeof name>) => void);
    },
    stream,
  };
}
