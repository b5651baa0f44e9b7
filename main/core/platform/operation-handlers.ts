import type { z } from 'zod';
import type { Sequenced } from '../../../shared/events.js';
import type { OperationName, Operations, SignedAccess, Streaming } from '../../../shared/operations/index.js';
import type { AuthedContext, Context } from './context.js';

/** What a handler receives for an operation: its input schema's parsed output (defaults applied). */
export type InputOf<K extends OperationName> = z.output<Operations[K]['input']>;

/** What a handler may answer for an operation: its output schema's input, before the transport encodes it. */
export type OutputOf<K extends OperationName> = z.input<Operations[K]['output']>;

/** Public operations, and those a signature can authorise, may run with no caller. */
type CtxFor<K extends keyof Operations> = Operations[K]['access'] extends 'public' ? Context : Operations[K]['signed'] extends SignedAccess ? Context : AuthedContext;

/** One plain function per operation; the compiler checks each against its schemas. */
export type Handlers = {
  [K in keyof Operations]: (
    ctx: CtxFor<K>,
    input: InputOf<K>,
  ) => OutputOf<K> | Promise<OutputOf<K>>;
};

type StreamingName = { [K in keyof Operations]: Operations[K]['streaming'] extends Streaming ? K : never }[keyof Operations];

/** The streaming side of operations that stream: their events, in order. */
export type StreamHandlers = {
  [K in StreamingName]: (
    ctx: AuthedContext,
    input: InputOf<K>,
  ) => AsyncIterable<Sequenced<z.output<NonNullable<Operations[K]['streaming']>['event']> & { event: string }>>;
};

/** A domain's handlers, kept beside its code: `HandlersFor<'threads'>` is every `threads.*` operation. */
export type HandlersFor<Prefix extends string> = Pick<Handlers, Extract<keyof Operations, `${Prefix}.${string}`>>;

/** The first name found in two maps, or `unknown` when every name is in one map only. */
type Disjoint<T extends readonly object[], Seen extends PropertyKey = never> = T extends readonly [infer H extends object, ...infer R extends readonly object[]]
  ? [Extract<keyof H, Seen>] extends [never]
    ? Disjoint<R, Seen | keyof H>
    : { readonly handledTwice: Extract<keyof H, Seen> }
  : unknown;

type Joined<T extends readonly object[]> = T extends readonly [infer H, ...infer R extends readonly object[]] ? H & Joined<R> : unknown;

/**
 * The domains' maps joined into one: a name handled in two maps does not compile (`handledTwice`
 * names it), and assigning the result to `Handlers` fails for an operation no map handles.
 */
export function joinHandlers<const T extends readonly object[]>(...maps: T & Disjoint<T>): Joined<T> {
  return Object.assign({}, ...maps) as Joined<T>;
}
