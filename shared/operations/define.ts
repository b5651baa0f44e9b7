import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation. `public` needs no token; `user` any signed-in caller;
 * `admin` admins and super admins; `super_admin` super admins only.
 */
export type Access = 'public' | 'user' | 'admin' | 'super_admin';

/**
 * What a request carries: a JSON object (path, query and body merged into the input); a
 * multipart/form-data form whose `file` fields arrive as the input's `files`, one after another as
 * they are read; or raw bytes, the input's `body`, streamed as they arrive. Path and query are
 * input fields in every kind.
 */
export type BodyKind = 'json' | 'multipart' | 'raw';

/** What a success answers: the output as JSON; a file (a `FileDownload`), its bytes streamed; events. */
export type ResponseKind = 'json' | 'file' | 'sse';

/** The input field that holds a non-JSON body. */
export const BODY_FIELD = { multipart: 'files', raw: 'body' } as const;

/** The form field a multipart operation reads its files from. */
export const MULTIPART_FILE_FIELD = 'file';

/**
 * A signature in the input (a signed URL's `signature` query) as the credential: `only` — it is the
 * only one, no token is read (upload parts); `or_token` — a signed link needs no token, a request
 * without a signature is authorised by `access` as any other (artifact content).
 */
export type SignedAccess = 'only' | 'or_token';

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
    /** Largest raw body accepted, in bytes; for a JSON body, its limit when larger than `[server] body_limit_mb` (chat.send's images). */
    readonly bodyLimit?: number | undefined;
  };
  /** What the request carries; `json` when unset. */
  readonly body?: BodyKind | undefined;
  /** What a success answers; `json` when unset (`sse` when the operation streams). */
  readonly response?: ResponseKind | undefined;
  /** Set when a signature in the input can (or must) stand for the caller's token. */
  readonly signed?: SignedAccess | undefined;
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

/** Keeps each operation's literal types (its name, access, whether it streams, how it is signed, what it answers) for the handler maps. */
export function defineOperation<
  N extends string,
  I extends z.ZodType,
  O extends z.ZodType,
  A extends Access,
  S extends Streaming | undefined = undefined,
  G extends SignedAccess | undefined = undefined,
  R extends ResponseKind | undefined = undefined,
>(op: Operation<I, O, A> & { name: N; streaming?: S; signed?: G; response?: R }): Operation<I, O, A> & { name: N; streaming: S; signed: G; response: R } {
  return op as Operation<I, O, A> & { name: N; streaming: S; signed: G; response: R };
}

export type InputOf<T> = T extends Operation<infer I, z.ZodType> ? z.input<I> : never;
export type ParsedInputOf<T> = T extends Operation<infer I, z.ZodType> ? z.output<I> : never;
export type OutputOf<T> = T extends Operation<z.ZodType, infer O> ? z.output<O> : never;

/** `/threads/{id}` → `['id']` */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
}
