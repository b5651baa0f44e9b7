/**
 * Every route of the compatible APIs under `/v1`, declared once. They are outside the operation
 * registry (their shapes are OpenAI's and Anthropic's, not Parley's), so this list is what their
 * registration checks against and what the auth matrix and the fuzz sweep iterate: a `/v1` route
 * registered without an entry here stops the server from starting (`assertDeclaredFacadeRoute`),
 * so a new route joins both sweeps by construction.
 */

/** Whose error envelope a route answers in: OpenAI's `{ error: { message, type, param, code } }` or Anthropic's `{ type: "error", error: { type, message } }`. */
export type FacadeErrorShape = 'openai' | 'anthropic';

export interface FacadeRoute {
  method: 'GET' | 'POST';
  /** The full path as Fastify registers it (`:id` for a parameter). */
  url: string;
  errors: FacadeErrorShape;
  /** How a client of that API sends its key (Anthropic's SDK: `x-api-key`). */
  credential: 'bearer' | 'x-api-key';
  /** A request the route accepts from any signed-in caller: path parameters and the JSON body. */
  sample: { params?: Record<string, string>; body?: unknown };
}

export const FACADE_ROUTES = [
  { method: 'GET', url: '/v1/models', errors: 'openai', credential: 'bearer', sample: {} },
  { method: 'GET', url: '/v1/models/:id', errors: 'openai', credential: 'bearer', sample: { params: { id: 'auto' } } },
  {
    method: 'POST',
    url: '/v1/chat/completions',
    errors: 'openai',
    credential: 'bearer',
    sample: { body: { model: 'mdl_extractive', messages: [{ role: 'user', content: 'hello' }] } },
  },
  { method: 'POST', url: '/v1/embeddings', errors: 'openai', credential: 'bearer', sample: { body: { model: 'mdl_extractive', input: 'hello' } } },
  {
    method: 'POST',
    url: '/v1/messages',
    errors: 'anthropic',
    credential: 'x-api-key',
    sample: { body: { model: 'mdl_extractive', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] } },
  },
] as const satisfies readonly FacadeRoute[];

export type FacadeRouteKey = `${(typeof FACADE_ROUTES)[number]['method']} ${(typeof FACADE_ROUTES)[number]['url']}`;

const byKey = new Map<string, FacadeRoute>(FACADE_ROUTES.map((r) => [`${r.method} ${r.url}`, r]));

/**
 * The declared route to register, its URL relative to the `/v1` prefix its plugin registers under:
 * `v1.route({ ...facadeRoute('POST /v1/embeddings'), handler })`.
 */
export function facadeRoute(key: FacadeRouteKey): { method: FacadeRoute['method']; url: string } {
  const route = byKey.get(key);
  if (!route) throw new Error(`${key} is not declared in facade-routes.ts`);
  return { method: route.method, url: route.url.slice('/v1'.length) };
}

/**
 * Called for every route Fastify registers (`onRoute`): one under `/v1` that is not declared above
 * fails the start, with what to add. HEAD is Fastify's automatic twin of a GET.
 */
export function assertDeclaredFacadeRoute(method: string | string[], url: string): void {
  if (url !== '/v1' && !url.startsWith('/v1/')) return;
  const path = url.length > 4 && url.endsWith('/') ? url.slice(0, -1) : url;
  for (const m of (Array.isArray(method) ? method : [method]).map((x) => x.toUpperCase())) {
    if (m === 'HEAD' || m === 'OPTIONS') continue;
    if (!byKey.has(`${m} ${path}`)) {
      throw new Error(`${m} ${path} is registered but not declared in main/transport/http/facade-routes.ts: add it there, so the auth matrix and the fuzz sweep cover it.`);
    }
  }
}
