import { z } from 'zod';
import type { Config } from '../../../shared/config.js';
import { ServiceError } from '../../../shared/errors.js';
import { fieldErrors } from '../platform/field-errors.js';
import { isOperationName, operations, type Access, type OperationName } from '../../../shared/operations/index.js';
import type { Repositories } from '../../db/repositories/index.js';
import { authenticate } from '../platform/auth/authenticate.js';
import { ensureQuotaLeft, meteredRuntime } from '../platform/auth/quota.js';
import type { Sequenced } from '../../../shared/events.js';
import { ChatCompletionRequest } from '../../../shared/openai.js';
import { startCompletion } from '../conversation/chat/completions.js';
import { holdingSlot } from '../answering/slots.js';
import { createEmbeddings } from '../models/embeddings/create.js';
import { EmbeddingsRequest } from '../../../shared/openai-embeddings.js';
import { modelPurpose } from '../models/catalog/purpose.js';
import { startGroundedCompletion } from '../conversation/chat/completion-grounding.js';
import { allModels } from '../models/catalog/catalog.js';
import { checkPartGrant } from '../knowledge/uploads/handlers.js';
import type { PartGrant } from '../knowledge/uploads/signing.js';
import type { Caller, Context, Runtime } from '../platform/context.js';
import { handlers as defaultHandlers, streamHandlers, type Handlers } from './handlers.js';
import { atLeast } from '../platform/auth/roles.js';
import { createOidcSignIn } from '../platform/auth/oidc/flow.js';
import type { Role } from '../../../shared/operations/common.js';

export interface ServiceOptions {
  repos: Repositories;
  config: () => Config;
  appVersion: string;
  runtime: Runtime;
  now?: () => Date;
  handlers?: Handlers;
}

/** The least role each access level needs. */
const REQUIRED_ROLE: Record<Exclude<Access, 'public'>, Role> = { user: 'trial', admin: 'admin', super_admin: 'super_admin' };

/**
 * The service core as the transports see it: authenticate a token, invoke an operation by name.
 * Validation, authorization and output shaping happen here once, so HTTP and IPC cannot drift.
 */
export function createService(options: ServiceOptions) {
  const handlers = options.handlers ?? defaultHandlers;
  const base = { repos: options.repos, config: options.config, appVersion: options.appVersion, runtime: options.runtime, now: options.now ?? (() => new Date()) };

  /** Looks the operation up, checks the caller may call it and parses the input: once, for both transports. */
  function prepare(name: string, rawInput: unknown, caller: Caller | null) {
    base.runtime.lifecycle.assertAccepting();
    if (!isOperationName(name)) throw new ServiceError('not_found', `There is no operation named ${JSON.stringify(name)}.`);
    const op = operations[name];
    // A signed request (a download link) is authorised by its signature, which the handler checks.
    if (!(op.signed === 'or_token' && isSigned(rawInput))) authorize(op.access, caller, name);
    const parsed = op.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw new ServiceError('invalid_argument', describe(parsed.error), fieldErrors(parsed.error));
    if (op.callsModels) ensureQuotaLeft(base.repos, caller);
    return { name, op, input: parsed.data as unknown, ctx: { ...base, caller, runtime: meteredRuntime(base.runtime, base.repos, caller) } as Context };
  }

  const oidc = createOidcSignIn(base);

  return {
    /** OpenID Connect sign-in's two redirects (transport/http/oidc-routes.ts): not operations, since they answer with redirects. */
    oidc: {
      start(origin: string): Promise<string> {
        base.runtime.lifecycle.assertAccepting();
        return oidc.start(origin);
      },
      callback(query: URLSearchParams): Promise<string> {
        base.runtime.lifecycle.assertAccepting();
        return oidc.callback(query);
      },
    },

    authenticate(token: string | undefined): Caller {
      // First, so that once shutdown began nothing reads the database on a request's behalf.
      base.runtime.lifecycle.assertAccepting();
      return authenticate(base, token);
    },

    /** The OpenAI-compatible facade (`/v1`): HTTP only, outside the registry, same core underneath. */
    completion(rawBody: unknown, caller: Caller, signal: AbortSignal) {
      const parsed = ChatCompletionRequest.safeParse(rawBody);
      base.runtime.lifecycle.assertAccepting();
      if (!parsed.success) throw new ServiceError('invalid_argument', describe(parsed.error), fieldErrors(parsed.error));
      ensureQuotaLeft(base.repos, caller);
      // Shutdown cuts a facade answer short as it does the app's own answers.
      const stop = AbortSignal.any([signal, base.runtime.lifecycle.signal]);
      const ctx = { ...base, caller, runtime: meteredRuntime(base.runtime, base.repos, caller) };
      // One of the caller's answer slots, from before anything starts until the answer ends
      // (answers/slots.ts); an answer stored in a thread is the app's chat, which holds its own.
      const release = parsed.data.parley?.thread_id ? () => {} : base.runtime.answerSlots.take(caller.user.id);
      try {
        // `parley: { dataset_ids, … }` grounds the answer as the app's chat does (chat/completion-grounding.ts).
        const started = parsed.data.parley ? startGroundedCompletion(ctx, parsed.data, parsed.data.parley, stop) : startCompletion(ctx, parsed.data, stop);
        return { ...started, events: holdingSlot(started.events, release, stop) };
      } catch (error) {
        release();
        throw error;
      }
    },

    /** `POST /v1/embeddings`: validated here, quota and usage as for a completion (embeddings/create.ts). */
    embeddings(rawBody: unknown, caller: Caller, signal: AbortSignal) {
      base.runtime.lifecycle.assertAccepting();
      const parsed = EmbeddingsRequest.safeParse(rawBody);
      if (!parsed.success) throw new ServiceError('invalid_argument', describe(parsed.error), fieldErrors(parsed.error));
      ensureQuotaLeft(base.repos, caller);
      return createEmbeddings({ ...base, caller }, parsed.data, AbortSignal.any([signal, base.runtime.lifecycle.signal]));
    },

    /** Models as the facade lists them, each with what it is for (chat or embeddings). */
    models(caller: Caller) {
      base.runtime.lifecycle.assertAccepting();
      const ctx = { ...base, caller };
      return allModels(ctx).map((m) => ({ ...m, purpose: modelPurpose(ctx, m) }));
    },

    /** A part URL's signature and expiry, checked before its body is read. */
    checkPartUrl(grant: PartGrant, signature: string): void {
      base.runtime.lifecycle.assertAccepting();
      checkPartGrant(base, grant, signature);
    },

    /** Runs one operation for `caller` with untrusted `rawInput`; throws `ServiceError` on any expected failure. */
    async invoke(name: string, rawInput: unknown, caller: Caller | null): Promise<unknown> {
      if (isOperationName(name) && operations[name].streaming?.mode === 'always') {
        throw new ServiceError('invalid_argument', `${name} only streams; open it as a stream.`);
      }
      const { op, input, ctx } = prepare(name, rawInput, caller);
      const handler = handlers[name as keyof Handlers] as (ctx: Context, input: unknown) => unknown;
      const result = await handler(ctx, input);
      // The output schema is a whitelist: whatever a handler returns, only declared fields leave.
      return op.output.parse(result);
    },

    /** Whether an operation streams: `always`, `optional` (when asked to), or not at all. */
    streamingMode(name: string): 'always' | 'optional' | undefined {
      return isOperationName(name) ? operations[name].streaming?.mode : undefined;
    },

    /**
     * Runs a streaming operation: validation, authorization and the start happen before this
     * returns (so errors are thrown, not streamed); then events, each checked against the event schema.
     */
    stream(name: string, rawInput: unknown, caller: Caller | null): AsyncIterable<Sequenced> {
      const { op, input, ctx } = prepare(name, rawInput, caller);
      const streaming = op.streaming;
      if (!streaming || !Object.hasOwn(streamHandlers, name)) throw new ServiceError('invalid_argument', `${name} does not stream.`);
      const handler = streamHandlers[name as keyof typeof streamHandlers] as (ctx: Context, input: unknown) => AsyncIterable<Sequenced>;
      const events = handler(ctx, input);
      return {
        async *[Symbol.asyncIterator]() {
          for await (const event of events) {
            streaming.event.parse({ event: event.event, data: event.data });
            yield event;
          }
        },
      };
    },
  };
}

export type Service = ReturnType<typeof createService>;

function authorize(access: Access, caller: Caller | null, name: OperationName): void {
  if (access === 'public') return;
  if (!caller) throw new ServiceError('unauthenticated', 'This operation needs a signed-in caller.');
  if (!atLeast(caller.user.role, REQUIRED_ROLE[access])) {
    const who = access === 'super_admin' ? 'super admins' : 'admins';
    throw new ServiceError('forbidden', `Only ${who} may call ${name}.`);
  }
}

function isSigned(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as { signature?: unknown }).signature !== undefined;
}

function describe(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request is invalid.';
  const path = first.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path ? `${path}: ` : ''}${first.message}${more}`;
}
