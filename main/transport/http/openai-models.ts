import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../../shared/errors.js';
import type { Service } from '../../core/service/service.js';
import { facadeRoute } from './facade-routes.js';
import { openAiCaller } from './openai-shape.js';

type Listed = ReturnType<Service['models']>[number];

/**
 * OpenAI's model object, plus `name` (what Parley calls it) and `type`: `"llm"` for models that
 * write answers, `"embeddings"` for those `POST /v1/embeddings` takes (LM Studio's field and values,
 * which clients written for it already read).
 */
function modelObject(m: Listed) {
  return {
    id: m.id,
    object: 'model' as const,
    created: Math.floor(Date.parse(m.created_at) / 1000),
    owned_by: m.kind === 'builtin' ? 'parley' : m.provider,
    name: m.name,
    type: m.purpose === 'embedding' ? ('embeddings' as const) : ('llm' as const),
  };
}

/** `auto` is no model but Parley's dynamic routing; it is listed first, as the choice to make. */
const AUTO = { id: 'auto', object: 'model' as const, created: 0, owned_by: 'parley', name: 'Automatic (dynamic routing)', type: 'llm' as const };

/** `GET /v1/models` (chat models, `auto` first, then embedding models) and `GET /v1/models/{id}`. */
export function registerModelRoutes(v1: FastifyInstance, service: Service): void {
  v1.route({
    ...facadeRoute('GET /v1/models'),
    handler: async (request) => {
      const models = service.models(openAiCaller(service, request)).map(modelObject);
      // Stable within each kind: the catalogue's order (built-in, local, registered).
      const ordered = [...models.filter((m) => m.type === 'llm'), ...models.filter((m) => m.type === 'embeddings')];
      return { object: 'list', data: [AUTO, ...ordered] };
    },
  });

  v1.route({
    ...facadeRoute('GET /v1/models/:id'),
    handler: async (request) => {
      const who = openAiCaller(service, request);
      const { id } = request.params as { id: string };
      if (id === 'auto') return AUTO;
      const found = service.models(who).find((m) => m.id === id);
      if (!found) throw new ServiceError('not_found', `No model ${id}; GET /v1/models lists them.`, [{ path: 'model', message: 'no such model' }]);
      return modelObject(found);
    },
  });
}
