import { expect, vi } from 'vitest';
import type { Served } from '../../support/served.js';

/**
 * Registers an OpenAI-compatible model at `endpointUrl` (the test upstream's `openaiBaseUrl`)
 * that answers as the upstream's `model` (`echo`, `slow:50`…); answers its id.
 */
export async function addModel(served: Served, endpointUrl: string, name: string, model: string): Promise<string> {
  const res = await served.api('/models', { body: { name, provider: 'openai_compatible', endpoint_url: endpointUrl, api_key: 'test-key', model } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * A dataset with `files` (name → Markdown text), uploaded and processed, so that answers over
 * it have citations. Served mode runs in another process, so its ingest queue cannot be awaited:
 * each file's status is read until it is ready (a failed file fails the setup at once).
 */
export async function addDataset(served: Served, dataset: { name: string; description?: string }, files: Record<string, string>): Promise<{ id: string; kb_id: string }> {
  const created = (await (await served.api('/datasets', { body: dataset })).json()) as { id: string; kb_id: string };
  const form = new FormData();
  for (const [key, text] of Object.entries(files)) form.append('file', new Blob([text], { type: 'text/markdown' }), key);
  const upload = await fetch(`${served.url}/api/knowledge-bases/${created.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${served.apiKey}` } });
  expect(upload.status).toBe(201);
  for (const key of Object.keys(files)) {
    const status = await vi.waitFor(
      async () => {
        const artifact = (await (await served.api(`/knowledge-bases/${created.kb_id}/artifacts/${encodeURIComponent(key)}`)).json()) as { status: string };
        if (artifact.status !== 'ready' && artifact.status !== 'failed') throw new Error(`${key} is ${artifact.status}`);
        return artifact.status;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(status, `${key} was processed`).toBe('ready');
  }
  return created;
}
