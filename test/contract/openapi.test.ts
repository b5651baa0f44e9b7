import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '../../shared/operations/index.js';
import { startTestHttp } from '../support/core.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;
beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(() => h.close());

interface Doc {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; requestBody?: unknown; security?: unknown[] }>>;
}

describe('GET /api/openapi.json', () => {
  it('describes every registry operation, with its success status, from the same schemas', async () => {
    const res = await h.api('/openapi.json', { token: null });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    for (const op of Object.values(operations) as Operation[]) {
      const entry = doc.paths[`/api${op.http.path}`]?.[op.http.method.toLowerCase()];
      expect(entry, op.name).toBeDefined();
      expect(entry?.operationId).toBe(op.name);
      expect(Object.keys(entry?.responses ?? {})).toContain(String(op.http.status));
      expect(entry?.requestBody !== undefined).toBe(['POST', 'PUT', 'PATCH'].includes(op.http.method));
    }
    const createKey = doc.paths['/api/api-keys']?.post?.requestBody as { content: Record<string, { schema: { required: string[] } }> };
    expect(createKey.content['application/json']?.schema.required).toEqual(['name']);
    expect(doc.paths['/api/health']?.get?.security).toEqual([]);

    // Body kinds: a multipart upload, a raw part (signed: no token), a file download (a signed link or the token).
    const content = (path: string, method: string) => doc.paths[path]?.[method] as unknown as { requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, unknown> }>; security?: unknown[] };
    const upload = content('/api/knowledge-bases/{kb_id}/artifacts', 'post');
    expect(Object.keys(upload.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    const part = content('/api/uploads/{upload_id}/parts/{artifact_id}/{part}', 'put');
    expect(Object.keys(part.requestBody?.content ?? {})).toEqual(['application/octet-stream']);
    expect(part.security).toEqual([]);
    const file = content('/api/knowledge-bases/{kb_id}/artifacts/{key}/content', 'get');
    expect(Object.keys(file.responses['200']?.content ?? {})).toEqual(['application/octet-stream']);
    expect(file.security).toEqual([{ bearer: [] }, {}]);
  });
});
