import { z } from 'zod';
import { NoContent, Timestamp, displayText, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { Capabilities } from './models-schema.js';
import { LocalModelInfo } from './local-models-schema.js';

export const Provider = z.enum(['extractive', 'openai_compatible', 'anthropic', 'llama_cpp']);

export const Model = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['builtin', 'third_party', 'fine_tuned']),
  provider: Provider,
  /** The provider's own name for the model, e.g. `gpt-4o-mini` or `llama3.1:8b`. */
  model: z.string(),
  endpoint_url: z.string().nullable(),
  base_model: z.string().nullable(),
  capabilities: Capabilities,
  /** `unavailable` while the router's circuit breaker has it out of rotation. */
  status: z.enum(['available', 'degraded', 'unavailable']),
  /**
   * Endpoint models: whether a call or a connection test has reached it since the service started or
   * it was edited. While false, `available` means only that nothing has failed yet.
   */
  checked: z.boolean().optional(),
  /** Whether a provider API key is stored; the key itself is never returned. */
  has_api_key: z.boolean(),
  created_at: Timestamp,
  /** Local GGUF models (`provider: llama_cpp`): the file, what its header says, and whether it is loaded. */
  local: LocalModelInfo.optional(),
});
export type Model = z.infer<typeof Model>;

const HttpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const ApiKeySecret = z.string().min(1).max(4000);

export const listModels = defineOperation({
  name: 'models.list',
  summary: 'Every model that can answer: built-in, third-party and fine-tuned.',
  tag: 'Models',
  access: 'user',
  http: { method: 'GET', path: '/models', status: 200 },
  input: z.object({}),
  output: list(Model),
});

export const createModel = defineOperation({
  name: 'models.create',
  summary: 'Registers a third-party model, a fine-tuned one (with `base_model`), or a local GGUF file (`provider: llama_cpp`, `model_path`). The API key is stored encrypted and never returned.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'POST', path: '/models', status: 201 },
  input: z
    .object({
      /** Required except for llama_cpp (named from the file's header). */
      name: displayText(100).optional(),
      provider: z.enum(['openai_compatible', 'anthropic', 'llama_cpp']),
      endpoint_url: HttpUrl.optional(),
      api_key: ApiKeySecret.optional(),
      /** The provider's model name; for llama_cpp, optional (the file's name is used). */
      model: z.string().trim().min(1).max(200).optional(),
      /** llama_cpp: an absolute path to a GGUF file anywhere on this machine (used where it lies). */
      model_path: z.string().min(1).max(4096).optional(),
      base_model: z.string().trim().min(1).max(200).optional(),
      capabilities: Capabilities.partial().optional(),
    })
    .refine((m) => m.provider !== 'openai_compatible' || m.endpoint_url, { message: 'is required for openai_compatible models', path: ['endpoint_url'] })
    .refine((m) => m.provider !== 'llama_cpp' || m.model_path, { message: 'is required for llama_cpp models (the GGUF file)', path: ['model_path'] })
    .refine((m) => m.provider === 'llama_cpp' || m.model, { message: 'is required', path: ['model'] })
    .refine((m) => m.provider === 'llama_cpp' || m.name, { message: 'is required', path: ['name'] })
    .refine((m) => m.provider === 'llama_cpp' || m.model_path === undefined, { message: 'is only for llama_cpp models', path: ['model_path'] }),
  output: Model,
});

export const updateModel = defineOperation({
  name: 'models.update',
  summary:
    'Edits a registered model: its name, endpoint, API key (`null` removes it; left out, it is kept while the endpoint keeps its origin, and dropped when it moves to another), provider model id and capabilities. ' +
    'What is known of its health is reset: test it again to see whether it answers. Built-in models cannot be edited.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'PATCH', path: '/models/{id}', status: 200 },
  input: z.object({
    id: prefixedId('mdl'),
    name: displayText(100).optional(),
    endpoint_url: HttpUrl.nullable().optional(),
    api_key: ApiKeySecret.nullable().optional(),
    model: z.string().trim().min(1).max(200).optional(),
    capabilities: Capabilities.partial().optional(),
  }),
  output: Model,
});

export const probeModels = defineOperation({
  name: 'models.probe',
  summary:
    "The model ids an endpoint offers (its own `GET /v1/models`), for a form to pick from. Editing a model, `model_id` lends its stored API key, to the same origin only. " +
    'An endpoint that does not answer, or refuses the key, is 422 with the field to fix (`endpoint_url` or `api_key`).',
  tag: 'Models',
  access: 'admin',
  http: { method: 'POST', path: '/models/probe', status: 200 },
  input: z.object({
    provider: z.enum(['openai_compatible', 'anthropic']),
    /** Required for openai_compatible; Anthropic's own API when left out. */
    endpoint_url: HttpUrl.optional(),
    api_key: ApiKeySecret.optional(),
    model_id: prefixedId('mdl').optional(),
  }),
  output: list(z.object({ id: z.string() })),
});

export const deleteModel = defineOperation({
  name: 'models.delete',
  summary: 'Removes a registered model; built-in models cannot be removed. Messages it wrote keep its id.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'DELETE', path: '/models/{id}', status: 204 },
  input: z.object({ id: prefixedId('mdl') }),
  output: NoContent,
});

export const testModel = defineOperation({
  name: 'models.test',
  summary: 'Tests the connection to a model with a one-token request.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'POST', path: '/models/{id}/test', status: 200 },
  input: z.object({ id: prefixedId('mdl') }),
  output: z.object({ ok: z.boolean(), latency_ms: z.number(), detail: z.string() }),
});

export const ModelOverride = z.object({
  id: z.string(),
  workspace_id: z.string(),
  model_id: z.string(),
  endpoint_url: z.string(),
  has_api_key: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const WorkspaceId = prefixedId('wsp');

export const listOverrides = defineOperation({
  name: 'overrides.list',
  summary: "A workspace's endpoint overrides: a model answered by another endpoint.",
  tag: 'Models',
  access: 'user',
  http: { method: 'GET', path: '/workspaces/{workspace_id}/model-overrides', status: 200 },
  input: z.object({ workspace_id: WorkspaceId }),
  output: list(ModelOverride),
});

export const putOverride = defineOperation({
  name: 'overrides.put',
  summary: 'Sets the endpoint (and optionally the API key) that answers for a model in this workspace.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'PUT', path: '/workspaces/{workspace_id}/model-overrides/{model_id}', status: 200 },
  input: z.object({ workspace_id: WorkspaceId, model_id: prefixedId('mdl'), endpoint_url: HttpUrl, api_key: ApiKeySecret.optional() }),
  output: ModelOverride,
});

export const deleteOverride = defineOperation({
  name: 'overrides.delete',
  summary: 'Removes a workspace endpoint override.',
  tag: 'Models',
  access: 'admin',
  http: { method: 'DELETE', path: '/workspaces/{workspace_id}/model-overrides/{model_id}', status: 204 },
  input: z.object({ workspace_id: WorkspaceId, model_id: prefixedId('mdl') }),
  output: NoContent,
});
