import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation. `public` needs no token; `user` any signed-in caller;
 * `admin` admins and super admins; `super_admin` super admins only.
 */
export type Access = 'public' | 'user' | 'admin' | 'super_admin';

/**
 * One operation of the service: the single source of its IPC name, its HTTP binding, its
 * input and output schemas and who may call it. Both transports are generated from these.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, A extends Access = Access> {
  /** Stable name used over IPC, e.g. `apiKeys.create`. */
  readonly name: string;
  readonly summary: string;
  readonly tag: string;
  readonly access: A;
  readonly http: {
    readonly method: HttpMethod;
    /** Path under `/api`, with `{param}` placeholders filled from input fields of the same name. */
    readonly path: string;
    /** Status of a successful answer; 204 answers no body. */
    readonly status: 200 | 201 | 202 | 204;
  };
  /** Path params, query and body are merged into one object and parsed by this schema. */
  readonly input: I;
  readonly output: O;
  /**
   * Set on operations that can stream: the schema of each event. `optional` streams when the input
   * has `stream: true` (or the HTTP client accepts `text/event-stream`) and answers `output`
   * otherwise; `always` only streams.
   */
  readonly streaming?: Streaming | undefined;
  /**
   * The operation is there to call models (chat, comparisons). A trial user's quota counts model
   * calls — each one spends a unit as it is made, whatever operation makes it — and once it is
   * spent these are refused (429) before anything starts; reading pages spends nothing.
   */
  readonly callsModels?: true | undefined;
}

export interface Streaming {
  readonly mode: 'optional' | 'always';
  readonly event: z.ZodType;
}

/** Keeps each operation's literal types (access, whether it streams) for the handler maps. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType, A extends Access, S extends Streaming | undefined = undefined>(
  op: Operation<I, O, A> & { streaming?: S },
): Operation<I, O, A> & { streaming: S } {
  return op as Operation<I, O, A> & { streaming: S };
}

export type InputOf<T> = T extends Operation<infer I, z.ZodType> ? z.input<I> : never;
export type ParsedInputOf<T> = T extends Operation<infer I, z.ZodType> ? z.output<I> : never;
export type OutputOf<T> = T extends Operation<z.ZodType, infer O> ? z.output<O> : never;

/** `/threads/{id}` → `['id']` */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
}
