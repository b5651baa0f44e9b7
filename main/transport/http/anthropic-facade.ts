import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { MessagesRequest } from '../../../shared/anthropic.js';
import { ServiceError, type ErrorPayload } from '../../../shared/errors.js';
import { collectMessage, messageEvents, newMessageId, toCompletionRequest, type MessageStreamEvent } from '../../core/conversation/chat/messages-api.js';
import type { Service } from '../../core/service/service.js';
import { fieldErrors } from '../../core/platform/field-errors.js';
import type { Caller } from '../../core/platform/context.js';
import { callerOf } from './early-auth.js';
import { facadeRoute } from './facade-routes.js';
import { toErrorPayload } from './problem.js';
import { openSse } from './sse-writer.js';

/** Anthropic's error types, by the status Parley answers with. */
function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** Anthropic's error envelope, which its SDK parses, with Parley's stable `code` beside the type. */
export function anthropicError(payload: ErrorPayload) {
  return { type: 'error', error: { type: errorType(payload.status), message: payload.detail, code: payload.code } };
}


const sseEvent = (event: MessageStreamEvent | ReturnType<typeof anthropicError>) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * `POST /v1/messages`: Anthropic's Messages API over the same completion core as
 * `/v1/chat/completions` (same keys, quota, scoping, models; `model: "auto"` routes). The
 * `anthropic-version` header is accepted and not required.
 */
export function registerAnthropicFacade(app: FastifyInstance, service: Service, bodyLimit: preParsingAsyncHookHandler): void {
  app.register(async (v1) => {
    v1.addHook('preParsing', bodyLimit);
    v1.setErrorHandler((error, request, reply) => {
      const { payload, unexpected } = toErrorPayload(error);
      if (unexpected) request.log.error({ err: error }, 'unexpected error');
      return reply.status(payload.status).send(anthropicError(payload));
    });

    v1.route({
      ...facadeRoute('POST /v1/messages'),
      // The Anthropic SDK sends the key as `x-api-key` (0.x) or `Authorization: Bearer` (1.x, and `authToken`).
      config: { auth: 'api_key' },
      handler: (request, reply) => answer(service, callerOf(request, service), request, reply),
    });
  }, { prefix: '/v1' });
}

async function answer(service: Service, who: Caller, request: FastifyRequest, reply: FastifyReply) {
  const parsed = MessagesRequest.safeParse(request.body);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const first = errors[0];
    throw new ServiceError('invalid_argument', first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'The request is invalid.', errors);
  }
  const abort = new AbortController();
  const completion = service.completion(toCompletionRequest(parsed.data), who, abort.signal);
  const events = messageEvents(completion, newMessageId());
  if (!parsed.data.stream) {
    // The client went away: the upstream call stops too.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    return collectMessage(events);
  }
  // The first event waits for the model's first output: a failure before it is a plain HTTP
  // error the SDK raises as such, not a stream that opens and then breaks.
  const first = await events.next();
  return streamMessage(request, reply, first, events, abort);
}

async function streamMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  first: IteratorResult<MessageStreamEvent>,
  events: AsyncGenerator<MessageStreamEvent>,
  abort: AbortController,
) {
  const sse = openSse(request, reply, () => abort.abort());
  try {
    if (!first.done) await sse.write(sseEvent(first.value));
    for await (const event of events) await sse.write(sseEvent(event));
  } catch (error) {
    const { payload, unexpected } = toErrorPayload(error);
    if (unexpected) request.log.error({ err: error }, 'unexpected error in a /v1/messages stream');
    await sse.write(sseEvent(anthropicError(payload)));
  } finally {
    sse.end();
  }
}
