/**
 * The auth matrix (issue 10): every operation of the registry × every kind of caller — no token, a
 * bad token, trial, member, admin, super admin — and with another user's ids. The expectations come
 * from each operation's `access`, so an operation added to the registry is in the matrix at once.
 *
 * - Non-public operations: no token or a bad one → 401; a role below `access` → 403.
 * - Callers at or above `access` are never refused for who they are (401/403), bar the few
 *   documented refusals below.
 * - Ids of another organization's resources (in the path) → 404 for everyone; ids of another
 *   user's private resources (threads, messages, uploads, comparisons, API keys) → 404 too.
 * - Nothing answers 5xx.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_FIELD, MULTIPART_FILE_FIELD, operations, pathParams, type Access, type Operation } from '../../shared/operations/index.js';
import { TEST_ADMIN_KEY, startTestHttp } from '../support/core.js';
import { call, person, secondOrganization, trial, type Person } from '../support/people.js';
import { FACADE_ROUTES, type FacadeRoute } from '../../main/transport/http/facade-routes.js';
import { expectFacadeError, facadeFetch } from '../support/facade.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;
const ops = Object.values(operations) as Operation[];

type Who = 'trial' | 'member' | 'admin' | 'super_admin';
const WHO: Who[] = ['trial', 'member', 'admin', 'super_admin'];
const RANK: Record<Who, number> = { trial: 0, member: 1, admin: 2, super_admin: 3 };
const REQUIRED: Record<Exclude<Access, 'public'>, number> = { user: 0, admin: 2, super_admin: 3 };
const allowed = (op: Operation, who: Who) => op.access === 'public' || RANK[who] >= REQUIRED[op.access];

/** Refusals by rule rather than by access level: each names why. */
const RULE_REFUSALS: Record<string, Who[]> = {
  // A trial user's user token bounds all they do; a key would escape it (item 1).
  'apiKeys.create': ['trial'],
};

/** What a JSON Schema cannot say (a refinement across fields): merged into the sampled input. */
const SAMPLE_EXTRAS: Record<string, Record<string, unknown>> = {
  'comparisons.vote': { outcome: 'tie' },
};

/** Resource ids by type prefix (`thr`, `ds`, …), plus `artifact_key`. */
type Ids = Record<string, string>;

const tokens = {} as Record<Who, string>;
let otherOrg: Ids;
let otherUser: Ids;
let counter = 0;

/** An id that is well formed but names nothing, per type prefix. */
const nothing = (prefix: string) => `${prefix}_doesnotexist${prefix.length}`;

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  default?: unknown;
};

/** `^thr_…` → `thr`; `^(mdl|ovr)_…` → `mdl`. */
function prefixOf(schema: JsonSchema | undefined): string | undefined {
  return schema?.pattern ? /^\^\(?([a-z]+)[|_]/.exec(schema.pattern)?.[1] : undefined;
}

/** A minimal input the schema accepts (required fields only), ids taken from `ids` by prefix. */
function sample(schema: JsonSchema, ids: Ids, name = ''): unknown {
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0] ?? {}, ids, name);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, ids, key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => sample(schema.items ?? {}, ids, `${name}.${i}`));
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'string': {
      const prefix = prefixOf(schema);
      if (prefix) return ids[prefix] ?? nothing(prefix);
      if (schema.format === 'email') return `matrix-${++counter}@example.com`;
      if (schema.format === 'uri') return 'http://127.0.0.1:9/v1';
      if (name === 'key') return ids.artifact_key ?? 'nothing.txt';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return 'x';
  }
}

/** The body a client sends, by body kind: the sampled fields as JSON, a form with one small file, or a few bytes. */
function bodyOf(op: Operation, fields: Record<string, unknown>): BodyInit {
  const kind = op.body ?? 'json';
  if (kind === 'raw') return new Uint8Array([97, 98, 99]);
  if (kind === 'multipart') {
    const form = new FormData();
    form.append(MULTIPART_FILE_FIELD, new Blob(['matrix words'], { type: 'text/plain' }), `matrix-${++counter}.txt`);
    return form;
  }
  return JSON.stringify(fields);
}

function request(op: Operation, ids: Ids) {
  const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const input = { ...(sample(schema, ids) as Record<string, unknown>), ...SAMPLE_EXTRAS[op.name] };
  const params = pathParams(op.http.path);
  for (const p of params) if (input[p] === undefined) input[p] = sample(schema.properties?.[p] ?? {}, ids, p);
  const path = op.http.path.replace(/\{([a-z_]+)\}/g, (_, p: string) => encodeURIComponent(String(input[p])));
  const kind = op.body ?? 'json';
  // A multipart or raw body is its own field of the input; the other fields go in the query.
  const bodyField: string | undefined = kind === 'json' ? undefined : BODY_FIELD[kind];
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !params.includes(k) && k !== bodyField));
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.http.method);
  const inQuery = !hasBody || kind !== 'json';
  const query = inQuery && Object.keys(rest).length > 0 ? `?${new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]))}` : '';
  return { path: `${path}${query}`, body: hasBody ? bodyOf(op, rest) : undefined, shown: hasBody && kind === 'json' ? JSON.stringify(rest).slice(0, 120) : kind };
}

async function send(op: Operation, ids: Ids, token: string | null) {
  const { path, body, shown } = request(op, ids);
  const res = await h.api(path, { method: op.http.method, token, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, label: `${op.name} ${op.http.method} ${path} ${shown} → ${res.status} ${text.slice(0, 200)}` };
}

/** What `who` owns: a dataset with a file, an upload, a thread and its messages, a comparison, a report, a workflow, a model. */
async function resourcesOf(p: Person, role: Who | 'other_org', modelId?: string): Promise<Ids> {
  const as = <T>(path: string, body?: unknown) => call<T>(h.api, path, { token: p.key, ...(body === undefined ? {} : { body }) });
  const ids: Ids = { usr: p.id, wsp: p.workspace_id, ...(modelId ? { mdl: modelId } : {}) };
  const ds = await as<{ id: string; kb_id: string }>('/datasets', { name: `Matrix ${role}` });
  ids.ds = ds.body.id;
  ids.kb = ds.body.kb_id;
  const form = new FormData();
  form.append('file', new Blob(['matrix words'], { type: 'text/plain' }), 'm.txt');
  await h.api(`/knowledge-bases/${ids.kb}/artifacts`, { method: 'POST', body: form, token: p.key });
  ids.artifact_key = 'm.txt';
  ids.upl = (await as<{ upload_id: string }>('/uploads', { kb_id: ids.kb, files: [{ key: 'u.txt', filename: 'u.txt', size: 3 }] })).body.upload_id;
  const chat = await as<{ thread_id: string; message: { id: string } }>('/chat', { message: 'hello matrix', model_endpoint_override: 'mdl_extractive' });
  ids.thr = chat.body.thread_id;
  ids.msg = chat.body.message.id;
  ids.rpt = (await as<{ id: string }>('/reports', { dataset_id: ids.ds })).body.id;
  ids.key = (await call<{ data: { id: string }[] }>(h.api, '/api-keys', { token: p.key })).body.data[0]?.id ?? nothing('key');
  if (role === 'other_org') {
    ids.mdl = (await as<{ id: string }>('/models', { name: 'B model', provider: 'openai_compatible', endpoint_url: 'http://127.0.0.1:9/v1', model: 'm' })).body.id;
    ids.wf = (await as<{ id: string }>('/workflows', { name: 'B flow', system_prompt: 'Be brief.' })).body.id;
  }
  ids.cmp = (await as<{ id: string }>('/comparisons', { prompt: 'compare', model_ids: ['mdl_extractive', ids.mdl ?? 'mdl_extractive'] })).body.id;
  for (const [k, v] of Object.entries(ids)) if (!v) throw new Error(`setup: no ${k} for ${role}`);
  return ids;
}

beforeAll(async () => {
  h = await startTestHttp();
  tokens.super_admin = TEST_ADMIN_KEY;
  tokens.admin = (await person(h.api, 'admin')).key;
  tokens.member = (await person(h.api, 'member')).key;
  tokens.trial = (await trial(h.api)).key;
  const model = await call<{ id: string }>(h.api, '/models', { body: { name: 'A model', provider: 'openai_compatible', endpoint_url: 'http://127.0.0.1:9/v1', model: 'm' } });
  otherUser = await resourcesOf(await person(h.api, 'member', 'someone-else'), 'member', model.body.id);
  otherOrg = await resourcesOf(secondOrganization(h.core), 'other_org');
}, 60_000);
afterAll(() => h.close());

/** Resources only their user may reach, within an organization too. */
const PRIVATE = new Set(['thr', 'msg', 'upl', 'cmp', 'key']);

/** Public operations whose input is a credential (a one-time sign-in code): a wrong one is 401 for anyone. */
const CREDENTIAL_INPUT = new Set(['signInCodes.redeem']);

describe('the auth matrix: every operation of the registry', () => {
  it('covers the whole registry', () => {
    expect(ops.length).toBe(Object.keys(operations).length);
    expect(ops.length).toBeGreaterThan(60);
  });

  it.each(ops.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const none = {} as Ids;
    if (CREDENTIAL_INPUT.has(op.name)) {
      // Its input is itself a credential: a made-up one is refused alike, whoever sends it.
      for (const token of [null, 'garbage', ...WHO.map((who) => tokens[who])]) expect((await send(op, none, token)).status).toBe(401);
      return;
    }
    if (op.signed === 'only') {
      // A signed URL is its own credential (an upload part): a made-up signature is refused whoever sends it, token or not.
      for (const token of [null, 'garbage', ...WHO.map((who) => tokens[who])]) {
        const r = await send(op, none, token);
        expect(r.status, r.label).toBe(403);
      }
      return;
    }
    // No token, and a token that is no credential.
    for (const token of [null, 'pk_NotAKeyOfThisServer0123456789', 'garbage']) {
      const r = await send(op, none, token);
      expect(r.status, r.label).toBeLessThan(500);
      if (op.access === 'public') expect([401, 403], r.label).not.toContain(r.status);
      else expect(r.status, r.label).toBe(401);
    }
    for (const who of WHO) {
      // Ids that name nothing: refused for who they are exactly when the access level says so.
      const r = await send(op, none, tokens[who]);
      expect(r.status, r.label).toBeLessThan(500);
      if (!allowed(op, who)) {
        expect(r.status, `${who}: ${r.label}`).toBe(403);
        continue;
      }
      if (RULE_REFUSALS[op.name]?.includes(who)) expect(r.status, `${who}: ${r.label}`).toBe(403);
      else expect([401, 403], `${who}: ${r.label}`).not.toContain(r.status);

      // Another organization's resources do not exist here.
      const params = pathParams(op.http.path);
      const foreign = await send(op, otherOrg, tokens[who]);
      expect(foreign.status, `${who}: ${foreign.label}`).toBeLessThan(500);
      if (params.length > 0 && !RULE_REFUSALS[op.name]?.includes(who)) expect(foreign.status, `${who} with another organization's ids: ${foreign.label}`).toBe(404);

      // Another user's private resources (their threads, uploads, keys…) do not exist for others either.
      const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      const privateParam = params.some((p) => PRIVATE.has(prefixOf(schema.properties?.[p]) ?? ''));
      if (privateParam && op.access === 'user') {
        const theirs = await send(op, otherUser, tokens[who]);
        expect(theirs.status, `${who} with another user's ids: ${theirs.label}`).toBe(404);
      }
    }
  });
});

/** Points a route's sample at `model`: the model a body names, or the `:id` of the path. */
function naming(route: FacadeRoute, model: string): { params?: Record<string, string>; body?: unknown } {
  const body = route.sample.body;
  if (route.url.includes(':id')) return { params: { id: model } };
  return body && typeof body === 'object' && 'model' in body ? { body: { ...body, model } } : {};
}

describe('the auth matrix: every /v1 route (main/transport/http/facade-routes.ts)', () => {
  it('covers the declared routes', () => {
    expect(FACADE_ROUTES.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['GET /v1/models', 'GET /v1/models/:id', 'POST /v1/chat/completions', 'POST /v1/embeddings']));
  });

  it.each(FACADE_ROUTES.map((r) => [`${r.method} ${r.url}`, r as FacadeRoute] as const))('%s', async (_name, route) => {
    const send = async (token: string | null, over: { params?: Record<string, string>; body?: unknown } = {}) => {
      const res = await facadeFetch(h.url, route, { token, ...over });
      const text = await res.text();
      return { status: res.status, text, label: `${route.method} ${route.url} ${JSON.stringify(over)} → ${res.status} ${text.slice(0, 200)}` };
    };
    // No key, and keys that are no credential: 401 in the API's own error shape.
    for (const token of [null, 'pk_NotAKeyOfThisServer0123456789', 'garbage']) {
      const r = await send(token);
      expect(r.status, r.label).toBe(401);
      expectFacadeError(route, 401, r.text, r.label);
    }
    for (const who of WHO) {
      // Every signed-in caller may use every route (the quota, not the role, bounds a trial).
      const r = await send(tokens[who]);
      expect(r.status, `${who}: ${r.label}`).toBeLessThan(500);
      expect([401, 403], `${who}: ${r.label}`).not.toContain(r.status);
      // Another organization's model does not exist here.
      const sample = naming(route, otherOrg.mdl ?? '');
      if (sample.params || sample.body) {
        const foreign = await send(tokens[who], sample);
        expect(foreign.status, `${who} with another organization's model: ${foreign.label}`).toBe(404);
        expectFacadeError(route, 404, foreign.text, foreign.label);
      }
    }
  });
});
