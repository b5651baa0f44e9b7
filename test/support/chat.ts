import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import type { BootOptions } from '../../main/boot.js';
import { startTestHttp } from './core.js';

/** Three short Markdown files on unrelated subjects: each question finds one file first. */
export const VILLAGE_DOCS: Record<string, string> = {
  'lighthouse.md': '# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n',
  'bakery.md': '# Bakery\n\nSourdough bread needs a starter fed with flour and water; the dough rests overnight before baking at high heat.\n',
  'orchard.md': '# Orchard\n\nApple trees are pruned in late winter, and the orchard is sprayed with lime sulphur against scab before blossom.\n',
};

export type Harness = Awaited<ReturnType<typeof startTestHttp>> & {
  upstream: Upstream;
  /** Registers an OpenAI-compatible model on the fixture upstream; `upstreamModel` scripts its behaviour. */
  addModel(name: string, upstreamModel: string, extra?: Record<string, unknown>): Promise<string>;
  json<T = Record<string, unknown>>(path: string, method: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  /** Creates a dataset holding `files` (key → text) and waits until every file is ready. */
  dataset(name: string, files: Record<string, string>): Promise<{ id: string; kb_id: string }>;
};

/** Parley over HTTP on a real port, with the deterministic upstream beside it. */
export async function startChatHarness(options: Partial<BootOptions> = {}): Promise<Harness> {
  const upstream = await startUpstream();
  const http = await startTestHttp(options);
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
  /** The artifact's status once the ingest queue has nothing left to do. */
  const settle = async (kbId: string, key: string) => {
    await http.core.runtime.ingest.idle();
    return (await json<{ status: string }>(`/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(key)}`, 'GET')).body.status;
  };
  const dataset = async (name: string, files: Record<string, string>) => {
    const created = (await json<{ id: string; kb_id: string }>('/datasets', 'POST', { name })).body;
    const form = new FormData();
    for (const [key, text] of Object.entries(files)) form.append('file', new Blob([text], { type: key.endsWith('.md') ? 'text/markdown' : 'text/plain' }), key);
    const res = await http.api(`/knowledge-bases/${created.kb_id}/artifacts`, { method: 'POST', body: form });
    if (res.status !== 201) throw new Error(`could not upload into ${name}: ${res.status}`);
    for (const key of Object.keys(files)) if ((await settle(created.kb_id, key)) !== 'ready') throw new Error(`${key} failed`);
    return created;
  };
  const closeHttp = http.close;
  return Object.assign(http, {
    upstream,
    addModel,
    json,
    dataset,
    close: async () => {
      await closeHttp();
      await upstream.close();
    },
  });
}
