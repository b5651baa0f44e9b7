import { z } from 'zod';
import { API_VERSION } from '../../../shared/api-version.js';
import { BODY_FIELD, MULTIPART_FILE_FIELD, operations, pathParams, type Operation } from '../../../shared/operations/index.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

const PROBLEM = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
  },
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const BINARY = { type: 'string', format: 'binary' };

/** The request body as the body kind sends it; `fields` are the input's body fields (JSON). */
function requestBody(op: Operation, fields: JsonSchema) {
  switch (op.body ?? 'json') {
    case 'multipart':
      return { 'multipart/form-data': { schema: { type: 'object', required: [MULTIPART_FILE_FIELD], properties: { [MULTIPART_FILE_FIELD]: { type: 'array', items: BINARY } } } } };
    case 'raw':
      return { 'application/octet-stream': { schema: BINARY } };
    case 'json':
      return { 'application/json': { schema: fields } };
  }
}

function successOf(op: Operation) {
  if (op.http.status === 204) return { description: 'No content' };
  if (op.response === 'file') return { description: 'The file', content: { 'application/octet-stream': { schema: BINARY } } };
  return { description: 'OK', content: { 'application/json': { schema: schemaOf(op.output, 'output') } } };
}

/** Who may call: no token for public operations and signed URLs; a signed link or the token for `or_token`. */
function securityOf(op: Operation) {
  if (op.access === 'public' || op.signed === 'only') return { security: [] };
  if (op.signed === 'or_token') return { security: [{ bearer: [] }, {}] };
  return {};
}

function describeOperation(op: Operation) {
  const input = schemaOf(op.input, 'input');
  const inPath = new Set(pathParams(op.http.path));
  const kind = op.body ?? 'json';
  // A multipart or raw body is not an input field on the wire: its other fields are path and query.
  const bodyField: string | undefined = kind === 'json' ? undefined : BODY_FIELD[kind];
  const properties = Object.fromEntries(Object.entries(input.properties ?? {}).filter(([name]) => name !== bodyField));
  const required = new Set(input.required ?? []);
  const hasBody = op.http.method === 'POST' || op.http.method === 'PUT' || op.http.method === 'PATCH';
  const inQuery = !hasBody || kind !== 'json';
  const parameters = Object.entries(properties)
    .filter(([name]) => inPath.has(name) || inQuery)
    .map(([name, schema]) => ({ name, in: inPath.has(name) ? 'path' : 'query', required: inPath.has(name) || required.has(name), schema }));
  const bodyProps = Object.fromEntries(Object.entries(properties).filter(([name]) => !inPath.has(name)));
  const body = { ...input, properties: bodyProps, required: [...required].filter((name) => !inPath.has(name)) };

  return {
    operationId: op.name,
    summary: op.summary,
    tags: [op.tag],
    ...securityOf(op),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody ? { requestBody: { required: true, content: requestBody(op, body) } } : {}),
    responses: {
      [String(op.http.status)]: successOf(op),
      default: { description: 'An error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
    },
    ...(op.access === 'admin' || op.access === 'super_admin' ? { 'x-parley-access': op.access } : {}),
  };
}

/** OpenAPI 3.1 of the whole API, generated from the same registry and schemas the routes use. */
export function buildOpenApi(appVersion: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(operations) as Operation[]) {
    const path = `/api${op.http.path}`;
    paths[path] ??= {};
    paths[path][op.http.method.toLowerCase()] = describeOperation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: appVersion,
      description: `Dated API release ${API_VERSION} (sent as the Parley-Api-Version header on every response).`,
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (pk_…) acts as the user who owns it. A user token (ut_…) onboards a trial user: issued by a super admin, it expires and may carry a request quota. ' +
            'Access tokens (at_…) are deprecated: still accepted, answered with `Deprecation: true`; move to user tokens or API keys.',
        },
      },
      schemas: { Problem: PROBLEM },
    },
    paths,
  };
}
