import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { startTestHttp } from './core.js';

export type Harness = Awaited<ReturnType<typeof startTestHttp>> & {
  upstream: Upstream;
  /** Registers an OpenAI-compatible model on the fixture upstream; `upstreamModel` scripts its behaviour. */
  addModel(name: string, upstreamModel: string, extra?: Record<string, unknown>): Promise<string>;
  json<T = Record<string, unknown>>(path: string, method: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
};

/** Parley over HTTP on a real port, with the deterministic upstream beside it. */
export async function startChatHarness(): Promise<Harness> {
  const upstream = await startUpstream();
  const http = await startTestHttp();
  const json = async <T>(path: string, method: string, body?: unknown, token?: string) => {
    const res = await http.api(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(token ? { token } : {}) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const addModel = async (name: string, upstreamModel: string, extra: Record<string, unknown> = {}) => {
    const res = await json<{ id: string }>('/models', 'POST', {
      name,
      provider: 'openai_compatible',
      endpoint_url: upstream.openaiBaseUrl,
      api_key: `sk-${name.toLowerCase().replace(/\W/g, '')}`,
      model: upstreamModel,
      capabilities: { quality: 6, strengths: ['general'] },
      ...extra,
    });
    if (res.status !== 201) throw new Error(`could not register ${name}: ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  const closeHttp = http.close;
  return Object.assign(http, {
    upstream,
    addModel,
    json,
    close: async () => {
      await closeHttp();
      await upstream.close();
    },
  });
}
