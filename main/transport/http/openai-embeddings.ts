import type { FastifyInstance } from 'fastify';
import type { Service } from '../../core/service/service.js';
import { facadeRoute } from './facade-routes.js';
import { openAiCaller } from './openai-shape.js';

/** A vector as OpenAI's `encoding_format: "base64"` sends it: little-endian float32 bytes. */
export function base64Vector(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString('base64');
}

/** `POST /v1/embeddings` in OpenAI's shape; the work is the core's (`service.embeddings`). */
export function registerEmbeddingRoutes(v1: FastifyInstance, service: Service): void {
  v1.route({
    ...facadeRoute('POST /v1/embeddings'),
    handler: async (request, reply) => {
      const who = openAiCaller(service, request);
      // A client that goes away stops a remote call under way.
      const abort = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const result = await service.embeddings(request.body, who, abort.signal);
      const base64 = (request.body as { encoding_format?: string }).encoding_format === 'base64';
      return {
        object: 'list',
        data: result.vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? base64Vector(v) : v })),
        model: result.model,
        usage: { prompt_tokens: result.prompt_tokens, total_tokens: result.prompt_tokens },
      };
    },
  });
}
