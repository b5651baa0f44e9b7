import { z } from 'zod';
import { API_VERSION } from '../../../shared/api-version.js';
import { operations, pathParams, type Operation } from '../../../shared/operations/index.js';

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

function describeOperation(op: Operation) {
  const input = schemaOf(op.input, 'input');
  const inPath = new Set(pathParams(op.http.path));
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const hasBody = op.http.method === 'POST' || op.http.method === 'PUT' || op.http.method === 'PATCH';
  const parameters = Object.entries(properties)
    .filter(([name]) => inPath.has(name) || !hasBody)
    .map(([name, schema]) => ({ name, in: inPath.has(name) ? 'path' : 'query', required: inPath.has(name) || required.has(name), schema }));
  const bodyProps = Object.fromEntries(Object.entries(properties).filter(([name]) => !inPath.has(name)));
  const body = { ...input, properties: bodyProps, required: [...required].filter((name) => !inPath.has(name)) };

  const success =
    op.http.status === 204
      ? { description: 'No content' }
      : { description: 'OK', content: { 'application/json': { schema: schemaOf(op.output, 'output') } } };
  return {
    operationId: op.name,
    summary: op.summary,
    tags: [op.tag],
    ...(op.access === 'public' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses: {
      [String(op.http.status)]: success,
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
