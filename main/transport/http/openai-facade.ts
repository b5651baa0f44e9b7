import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Service } from '../../core/service/service.js';
import { toErrorPayload } from './problem.js';
import { openSse } from './sse-writer.js';
import { openAiCaller, openAiError } from './openai-shape.js';
import { registerModelRoutes } from './openai-models.js';
import { registerEmbeddingRoutes } from './openai-embeddings.js';
import { facadeRoute } from './facade-routes.js';


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

    // GET /v1/models, GET /v1/models/{id}, POST /v1/embeddings: declared in facade-routes.ts like every /v1 route.
    registerModelRoutes(v1, service);
    registerEmbeddingRoutes(v1, service);

    v1.post(facadeRoute('POST /v1/chat/completions').url, async (request, reply) => {
      const who = openAiCaller(service, request);
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
        // Set for a request grounded on datasets (`parley` in the body): the sources the answer cites.
        let parley: { citations: unknown[] } | undefined;
        const toolCalls: ToolCallOut[] = [];
        // A model that fails the answer is thrown on: problem.ts says it (502 upstream_error, or the limit's own code).
        for await (const event of completion.events) {
          if (event.type === 'delta') content += event.text;
          else if (event.type === 'usage') usage = event;
          else if (event.type === 'switch') model = event.model.model.id;
          else if (event.type === 'finish') finish = event.reason;
          else if (event.type === 'citations') parley = { citations: event.citations };
          else if (event.type === 'tool_call') toolCalls.push(toolCallOut(event.call));
        }
        const calls = toolCalls.length > 0 ? { tool_calls: toolCalls } : {};
        return {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: toolCalls.length > 0 && !content ? null : content, refusal: null, ...calls, ...(parley ? { parley } : {}) }, logprobs: null, finish_reason: finish }],
          usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens },
        };
      }
      return streamCompletion(request, reply, { id, created, model, includeUsage: body.stream_options?.include_usage === true, completion, abort });
    });
  }, { prefix: '/v1' });
}

type ToolCallOut = { id: string; type: 'function'; function: { name: string; arguments: string } };

function toolCallOut(call: { id: string; name: string; arguments: string }): ToolCallOut {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
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
  let parley: { citations: unknown[] } | undefined;
  try {
    let first = true;
    let calls = 0;
    for await (const event of s.completion.events) {
      if (event.type === 'switch') model = event.model.model.id;
      else if (event.type === 'usage') usage = event;
      else if (event.type === 'finish') finish = event.reason;
      else if (event.type === 'citations') parley = { citations: event.citations };
      else if (event.type === 'tool_call') {
        // Each call goes out whole, in one piece: the SDKs join pieces by `index`, one is enough.
        const piece = { index: calls++, ...toolCallOut(event.call) };
        await write(chunk(first ? { role: 'assistant', content: null, tool_calls: [piece] } : { tool_calls: [piece] }, null));
        first = false;
      } else if (event.type === 'delta') {
        await write(chunk(first ? { role: 'assistant', content: event.text } : { content: event.text }, null));
        first = false;
      }
    }
    // The grounded answer's sources ride on the last chunk's delta, so the SDKs' stream helpers put them on the message.
    await write(chunk(parley ? { parley } : {}, finish));
    if (s.includeUsage) {
      const total = usage.input_tokens + usage.output_tokens;
      await write(`data: ${JSON.stringify({ id: s.id, object: 'chat.completion.chunk', created: s.created, model, choices: [], usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: total } })}\n\n`);
    }
    await write('data: [DONE]\n\n');
  } catch (error) {
    await write(`data: ${JSON.stringify(openAiError(toErrorPayload(error).payload))}\n\n`);
  } finally {
    sse.end();
  }
}
