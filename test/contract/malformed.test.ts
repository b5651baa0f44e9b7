import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTIPART_FILE_FIELD, operations, pathParams, type Operation } from '../../shared/operations/index.js';
import { startTestHttp, TEST_ADMIN_KEY } from '../support/core.js';
import { buildHttpApp } from '../../main/transport/http/app.js';
import { FACADE_ROUTES, type FacadeRoute } from '../../main/transport/http/facade-routes.js';
import { expectFacadeError, facadeFetch } from '../support/facade.js';

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

  it.each(ops.filter((op) => (op.body ?? 'json') !== 'json').map((op) => [op.name, op.body ?? 'json', op] as const))(
    '%s: arbitrary %s bodies',
    async (_name, kind, op) => {
      const segments = fc.array(fc.string({ maxLength: 300 }), { minLength: pathParams(op.http.path).length, maxLength: 3 });
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 2000 }), segments, async (filename, bytes, segs) => {
          const url = pathFor(op, segs);
          let body: BodyInit = bytes;
          if (kind === 'multipart') {
            body = new FormData();
            body.append(MULTIPART_FILE_FIELD, new Blob([bytes]), filename);
          }
          const res = await h.api(url, { method: op.http.method, body });
          await expectClientError(res, `${op.http.method} ${url} ${kind} ${JSON.stringify(filename)} ${bytes.length} bytes`);
        }),
        { numRuns: 40, seed: 20261126 },
      );
    },
  );

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

const facadeRoutes = FACADE_ROUTES.map((r) => [`${r.method} ${r.url}`, r as FacadeRoute] as const);

describe('/v1 routes (facade-routes.ts): malformed requests never yield a 5xx, and errors keep the API’s shape', () => {
  it.each(facadeRoutes)('%s: arbitrary JSON bodies and path params', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.string({ maxLength: 300 }), async (body, id) => {
        const res = await facadeFetch(h.url, route, { token: TEST_ADMIN_KEY, params: { id: id || 'x' }, body });
        const text = await res.text();
        const label = `${route.method} ${route.url} id=${JSON.stringify(id)} ${JSON.stringify(body)?.slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`;
        expect(res.status, label).toBeLessThan(500);
        if (res.status >= 400) expectFacadeError(route, res.status, text, label);
      }),
      { numRuns: 40, seed: 20261126 },
    );
  });

  it('a /v1 route registered without being declared in facade-routes.ts stops the server from starting', async () => {
    const app = await buildHttpApp({ service: h.core.service, config: h.core.config, appVersion: 't' });
    app.register(
      async (v1) => {
        v1.post('/undeclared', async () => ({}));
      },
      { prefix: '/v1' },
    );
    await expect(app.ready()).rejects.toThrow(/POST \/v1\/undeclared is registered but not declared in main\/transport\/http\/facade-routes\.ts/);
    await app.close().catch(() => {});
    // The declared ones are registered: each answers (401 without a key), none is the 404 of a missing route.
    for (const route of FACADE_ROUTES) expect((await facadeFetch(h.url, route, { token: null })).status, route.url).toBe(401);
  });

  it.each(facadeRoutes.filter(([, r]) => r.method === 'POST'))('%s: broken bodies and hostile values', async (_name, route) => {
    const cases: Array<[string, string]> = [
      ['{bad json', 'application/json'],
      ['', 'application/json'],
      ['name=x', 'application/x-www-form-urlencoded'],
      ['<xml/>', 'text/xml'],
      ['{"model": "' + 'x'.repeat(2_000_000) + '"}', 'application/json'],
    ];
    for (const [body, type] of cases) {
      const res = await fetch(`${h.url}${route.url}`, { method: 'POST', body, headers: { 'content-type': type, authorization: `Bearer ${TEST_ADMIN_KEY}`, 'x-api-key': TEST_ADMIN_KEY } });
      const text = await res.text();
      const label = `${route.url} ${type} ${body.slice(0, 40)} → ${res.status} ${text.slice(0, 200)}`;
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expectFacadeError(route, res.status, text, label);
    }
    const hostile = { model: { $gt: '' }, input: ['\u0000\uD800', 7], messages: [{ role: 'user', content: { text: 1 } }], max_tokens: -1, encoding_format: 'hex', stream: 'yes' };
    const res = await facadeFetch(h.url, route, { token: TEST_ADMIN_KEY, body: hostile });
    const text = await res.text();
    expect(res.status, text).toBe(400);
    expectFacadeError(route, 400, text, `${route.url} hostile → ${text}`);
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as raw bytes over a socket and reads the answer until the server closes or answers in full. */
function raw(request: string | Buffer): Promise<RawResponse> {
  const { port } = new URL(h.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = Buffer.alloc(0);
    let closed = false;
    const parse = (): RawResponse | null => {
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return null;
      const [statusLine = '', ...lines] = data.subarray(0, split).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? Number.NaN);
      const body = data.subarray(split + 4);
      if (Number.isFinite(length) && body.length < length) return null;
      if (!Number.isFinite(length) && !closed) return null; // chunked or unsized: read to the close
      return { status: Number(statusLine.split(' ')[1]), headers, body: (Number.isFinite(length) ? body.subarray(0, length) : body).toString('utf8') };
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const done = parse();
      if (done) {
        socket.destroy();
        resolve(done);
      }
    });
    socket.on('error', (error) => {
      closed = true;
      const done = parse();
      if (done) resolve(done);
      else reject(error);
    });
    socket.on('close', () => {
      closed = true;
      const done = parse();
      if (done) resolve(done);
      else reject(new Error(`no HTTP answer to ${JSON.stringify(request.toString().slice(0, 80))}: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`));
    });
    // Half-close after the request: a server waiting for more (a body never sent) ends the connection.
    socket.end(request);
  });
}

function expectProblem(res: RawResponse, status: number, code: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(res.body)).toMatchObject({ code, status, type: `urn:parley:problem:${code}` });
}

const HOST = 'Host: 127.0.0.1\r\n';

describe('the HTTP layer’s own errors are problems too (raw sockets)', () => {
  it('bad percent-encoding in the path → 400 problem', async () => {
    expectProblem(await raw(`GET /api/datasets/%E0%A4%A HTTP/1.1\r\n${HOST}\r\n`), 400, 'invalid_argument');
  });

  it('the Host check comes before URL decoding: a foreign host with a bad URL → 403', async () => {
    expectProblem(await raw('GET /api/datasets/%E0%A4%A HTTP/1.1\r\nHost: evil.example\r\n\r\n'), 403, 'forbidden');
  });

  it('a path segment over the router’s limit → 414 problem', async () => {
    expectProblem(await raw(`GET /api/datasets/${'a'.repeat(12_000)} HTTP/1.1\r\n${HOST}\r\n`), 414, 'uri_too_long');
  });

  it('an artifact key of 1,024 characters is routed, not refused as too long', async () => {
    const key = encodeURIComponent('é'.repeat(1024));
    const res = await raw(`GET /api/knowledge-bases/kb_nope/artifacts/${key} HTTP/1.1\r\n${HOST}Authorization: Bearer ${TEST_ADMIN_KEY}\r\n\r\n`);
    expectProblem(res, 404, 'not_found');
  });

  it('headers too large → 431 problem', async () => {
    expectProblem(await raw(`GET /api/health HTTP/1.1\r\n${HOST}X-Big: ${'b'.repeat(20_000)}\r\n\r\n`), 431, 'headers_too_large');
  });

  it('a request line that is not HTTP → 400 problem', async () => {
    expectProblem(await raw('HELLO THERE\r\n\r\n'), 400, 'invalid_argument');
  });

  it('a declared body over the limit → 413 problem, answered without waiting for the body', async () => {
    const res = await raw(`POST /api/api-keys HTTP/1.1\r\n${HOST}Authorization: Bearer ${TEST_ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"name":`);
    expectProblem(res, 413, 'payload_too_large');
  });

  it('fuzz: arbitrary request lines and header blocks never get a 5xx or a non-problem error', async () => {
    const token = fc.stringMatching(/^[\x21-\x7e%]{0,40}$/);
    const requestLine = fc.oneof(
      fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'G E T', ''), token, fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9', '')).map(([m, p, v]) => `${m} /api/${p} ${v}`),
      fc.string({ maxLength: 60 }),
    );
    const header = fc.tuple(fc.stringMatching(/^[\x20-\x7e]{0,20}$/), fc.string({ maxLength: 40, unit: 'binary-ascii' })).map(([k, v]) => `${k}: ${v}`);
    await fc.assert(
      fc.asyncProperty(requestLine, fc.array(header, { maxLength: 4 }), fc.boolean(), async (line, headers, withHost) => {
        const text = `${line}\r\n${withHost ? HOST : ''}${headers.join('\r\n')}${headers.length ? '\r\n' : ''}\r\n`;
        let res: RawResponse;
        try {
          res = await raw(text);
        } catch {
          return; // the server may close a connection it cannot read without answering (e.g. HTTP/0.9)
        }
        expect(res.status, text).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.headers['content-type'], text).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(res.body), text).toMatchObject({ code: expect.any(String), status: res.status });
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
