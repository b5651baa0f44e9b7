import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, pathParams, type Operation } from '../../shared/operations/index.js';
import { startTestHttp } from '../support/core.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;
beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(() => h.close());

const ops = Object.values(operations) as Operation[];
const hasBody = (op: Operation) => ['POST', 'PUT', 'PATCH'].includes(op.http.method);

/** Fills path params with arbitrary text, percent-encoded as a client would. */
function pathFor(op: Operation, segments: string[]): string {
  let i = 0;
  return op.http.path.replace(/\{[a-z_]+\}/g, () => encodeURIComponent(segments[i++] || 'x'));
}

async function expectClientError(res: Response, label: string) {
  const text = await res.text();
  expect(res.status, `${label} → ${res.status} ${text}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type'), label).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(text), label).toMatchObject({ code: expect.any(String), status: res.status });
    expect(text, label).not.toMatch(/\bat .*\.(ts|js):\d+/);
  }
}

describe('malformed requests never yield a 5xx', () => {
  it.each(ops.map((op) => [op.name, op] as const))('%s: arbitrary JSON bodies, queries and path params', async (_name, op) => {
    const segments = fc.array(fc.string({ maxLength: 300 }), { minLength: pathParams(op.http.path).length, maxLength: 3 });
    const queryish = fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 50 }), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), segments, queryish, async (body, segs, query) => {
        const qs = new URLSearchParams(query).toString();
        const url = `${pathFor(op, segs)}${qs ? `?${qs}` : ''}`;
        const res = await h.api(url, { method: op.http.method, ...(hasBody(op) ? { body: JSON.stringify(body) } : {}) });
        await expectClientError(res, `${op.http.method} ${url} ${JSON.stringify(body)?.slice(0, 200)}`);
      }),
      { numRuns: 40, seed: 20261122 },
    );
  });

  it.each(ops.filter(hasBody).map((op) => [op.name, op] as const))('%s: broken bodies', async (_name, op) => {
    const url = pathFor(op, ['key_abc', 'usr_abc']);
    // Each is unreadable as a JSON object (or too large): refused with a 4xx.
    const cases: Array<[string, string | undefined]> = [
      ['{bad json', 'application/json'],
      ['', 'application/json'],
      ['name=x', 'application/x-www-form-urlencoded'],
      ['<xml/>', 'text/xml'],
      ['{"name": "' + 'x'.repeat(2_000_000) + '"}', 'application/json'],
    ];
    for (const [body, type] of cases) {
      const res = await h.api(url, { method: op.http.method, body, headers: type ? { 'content-type': type } : {} });
      await expectClientError(res, `${op.name} ${type} ${body.slice(0, 40)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    // Readable JSON with hostile values: never a 5xx (unknown fields are ignored, bad ones refused).
    const hostile = JSON.stringify({ name: '\u0000\uD800', title: '\u0007', email: { $gt: '' }, role: 'super_admin', message: ['x'] });
    await expectClientError(await h.api(url, { method: op.http.method, body: hostile }), `${op.name} hostile`);
  });

  it('a body over the limit → 413 payload_too_large', async () => {
    const res = await h.api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('payload_too_large');
  });

  it('an unknown path or method → 404 problem+json', async () => {
    for (const [method, path] of [['GET', '/nope'], ['PUT', '/me'], ['POST', '/health']] as const) {
      const res = await h.api(path, { method, ...(method !== 'GET' ? { body: '{}' } : {}) });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });
});
