import { z } from 'zod';
import { list, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { Model } from './models.js';

/** A model Parley found on this machine: a GGUF file, or a running Ollama / LM Studio server. */
export const DiscoveredModel = z.object({
  source: z.enum(['ollama', 'lm_studio', 'file']),
  name: z.string(),
  /** Servers: the OpenAI-compatible endpoint to register (`POST /models`, provider openai_compatible). */
  endpoint_url: z.string().optional(),
  /** Servers: the models the server offers. */
  models: z.array(z.string()).optional(),
  /** Files: where it lies (admins only). */
  path: z.string().optional(),
  size_bytes: z.number().int().min(0).optional(),
  /** Files: the model id it is listed under in `GET /models`. */
  model_id: z.string().optional(),
  /** Files: always (nothing to register); servers: whether a model with that endpoint is registered. */
  registered: z.boolean(),
});

export const discoveredModels = defineOperation({
  name: 'models.discovered',
  summary:
    'GGUF files found on this machine (Parley’s models folder, LM Studio, Jan, GPT4All, Ollama’s store, `[local_models] search_paths`) and running Ollama / LM Studio servers on their loopback ports, each with whether it is registered.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'GET', path: '/models/discovered', status: 200 },
  input: z.object({}),
  output: list(DiscoveredModel),
});

export const loadModel = defineOperation({
  name: 'models.load',
  summary: 'Loads a local model into memory now (it otherwise loads on first use). Answers once loaded, or with its `failed` state and reason.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'POST', path: '/models/{id}/load', status: 200 },
  input: z.object({ id: prefixedId('mdl') }),
  output: Model,
});

export const unloadModel = defineOperation({
  name: 'models.unload',
  summary: 'Frees a local model’s memory (409 while it writes an answer). It loads again on next use.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'POST', path: '/models/{id}/unload', status: 200 },
  input: z.object({ id: prefixedId('mdl') }),
  output: Model,
});
