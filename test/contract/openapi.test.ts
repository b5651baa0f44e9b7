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
  });
});
