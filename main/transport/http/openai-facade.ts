import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ErrorPayload } from '../../../shared/errors.js';
import type { Service } from '../../core/service.js';
import { AnswerFailed } from '../../core/answers/answer-failed.js';
import { toErrorPayload } from './problem.js';
import { openSse } from './sse-writer.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** OpenAI's error envelope, which its SDKs and the tools built on them parse. */
function openAiError(payload: ErrorPayload) {
  const type = payload.status === 401 ? 'authentication_error' : payload.status === 429 ? 'rate_limit_error' : payload.status >= 500 ? 'api_error' : 'invalid_request_error';
  return { error: { message: payload.detail, type, param: payload.errors?.[0]?.path ?? null, code: payload.code } };
}

function caller(service: Service, request: FastifyRequest) {
  const header = request.headers.authorization;
  return service.authenticate(header ? BEARER.exec(header)?.[1] ?? '' : undefined);
}

/**
 * `/v1`: what existing tools speak. `GET /v1/models`, `POST /v1/chat/completions` (streaming and
 * not); `model: "auto"` routes dynamically. Same API keys, same core.
 */
export function registerOpenAiFacade(app: FastifyInstance, service: Service, bodyLimit: preParsingAsyncHookHandler): void {
  app.register(async (v1) => {
    v1.addHook('preParsing', bodyLimit);
    v1.setErrorHandler((error, request, reply) => {
      const { payload, unexpected } = toErrorPayload(error);
      if (unexpected) request.log.error({ err: error }, 'unexpected error');
      return reply.status(payload.status).send(openAiError(payload));
    });
    v1.setNotFoundHandler((request, reply) =>
      reply.status(404).send(openAiError({ code: 'not_found', title: 'Not found', status: 404, detail: `Nothing at ${request.method} ${request.url.split('?')[0]}.` })),
    );

    v1.get('/models', async (request) => {
      const models = service.models(caller(service, request));
      const created = (iso: string) => Math.floor(Date.parse(iso) / 1000);
      return {
        object: 'list',
        data: [
          { id: 'auto', object: 'model', created: 0, owned_by: 'parley' },
          ...models.map((m) => ({ id: m.id, object: 'model', created: created(m.created_at), owned_by: m.kind === 'builtin' ? 'parley' : m.provider, name: m.name })),
        ],
      };
    });

    v1.post('/chat/completions', async (request, reply) => {
      const who = caller(service, request);
      const abort = new AbortController();
      const completion = service.completion(request.body, who, abort.signal);
      const body = request.body as { stream?: boolean; stream_options?: { include_usage?: boolean } | null };
      const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
      const created = Math.floor(Date.now() / 1000);
      let model = completion.model.model.id;
      if (!body.stream) {
        let content = '';
        let usage = { input_tokens: 0, output_tokens: 0 };
        let finish = 'stop';
        for await (const event of completion.events) {
          if (event.type === 'delta') content += event.text;
          else if (event.type === 'usage') usage = event;
          else if (event.type === 'switch') model = event.model.model.id;
          else if (event.type === 'finish') finish = event.reason;
        }
        return {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
          usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens },
        };
      }
      return streamCompletion(request, reply, { id, created, model, includeUsage: body.stream_options?.include_usage === true, completion, abort });
    });
  }, { prefix: '/v1' });
}

async function streamCompletion(
  request: FastifyRequest,
  reply: FastifyReply,
  s: { id: string; created: number; model: string; includeUsage: boolean; completion: ReturnType<Service['completion']>; abort: AbortController },
) {
  // The facade is stateless: when the client goes, the upstream call stops too.
  const sse = openSse(request, reply, () => s.abort.abort());
  let model = s.model;
  const chunk = (delta: object, finish: string | null, extra: object = {}) =>
    `data: ${JSON.stringify({ id: s.id, object: 'chat.completion.chunk', created: s.created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
  const write = (text: string) => sse.write(text);
  let usage = { input_tokens: 0, output_tokens: 0 };
  let finish = 'stop';
  try {
    let first = true;
    for await (const event of s.completion.events) {
      if (event.type === 'switch') model = event.model.model.id;
      else if (event.type === 'usage') usage = event;
      else if (event.type === 'finish') finish = event.reason;
      else if (event.type === 'delta') {
        await write(chunk(first ? { role: 'assistant', content: event.text } : { content: event.text }, null));
        first = false;
      }
    }
    await write(chunk({}, finish));
    if (s.includeUsage) {
      const total = usage.input_tokens + usage.output_tokens;
      await write(`data: ${JSON.stringify({ id: s.id, object: 'chat.completion.chunk', created: s.created, model, choices: [], usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: total } })}\n\n`);
    }
    await write('data: [DONE]\n\n');
  } catch (error) {
    const payload: ErrorPayload =
      error instanceof AnswerFailed ? { code: error.code, title: 'Upstream error', status: 502, detail: error.message } : toErrorPayload(error).payload;
    await write(`data: ${JSON.stringify(openAiError(payload))}\n\n`);
  } finally {
    sse.end();
  }
}
