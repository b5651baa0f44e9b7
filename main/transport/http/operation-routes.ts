import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingAsyncHookHandler, RouteShorthandOptions } from 'fastify';
import type { Readable } from 'node:stream';
import { ServiceError } from '../../../shared/errors.js';
import { BODY_FIELD, MULTIPART_FILE_FIELD, operations, type BodyKind, type FileDownload, type IncomingFile, type Operation } from '../../../shared/operations/index.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';
import { callerOf, refuseUnread, type RouteAuth } from './early-auth.js';
import { sendFile } from './file-reply.js';
import { sendSse } from './sse.js';

/** Where a deprecated credential's callers learn what replaces it (RFC 9745 `Link` rel=deprecation). */
const DEPRECATION_LINK = '</api/openapi.json#/components/securitySchemes/bearer>; rel="deprecation"; type="application/json"';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const bodyKind = (op: Operation): BodyKind => op.body ?? 'json';

/** The form's `file` fields, one after another as they are read; other fields are skipped. */
async function* formFiles(request: FastifyRequest): AsyncGenerator<IncomingFile> {
  if (!request.isMultipart()) throw new ServiceError('unsupported_media_type', 'Send the files as multipart/form-data, one or more `file` fields.');
  for await (const part of request.files()) {
    if (part.fieldname !== MULTIPART_FILE_FIELD) {
      part.file.resume();
      continue;
    }
    yield { filename: part.filename, mime_type: part.mimetype || null, stream: part.file };
  }
}

/**
 * Path params, query and body become one input object; path params win, since they name the
 * resource. A non-JSON body is the input's body field (`BODY_FIELD`), read by the handler.
 */
function inputOf(op: Operation, request: FastifyRequest): Record<string, unknown> {
  const query = request.query as Record<string, unknown>;
  const params = request.params as Record<string, unknown>;
  const kind = bodyKind(op);
  if (kind === 'multipart') return { ...query, ...params, [BODY_FIELD.multipart]: formFiles(request) };
  if (kind === 'raw') return { ...query, ...params, [BODY_FIELD.raw]: (request.body as Readable | undefined) ?? request.raw };
  const body: unknown = request.body;
  if (body !== undefined && body !== null && !isPlainObject(body)) {
    throw new ServiceError('invalid_argument', 'The request body must be a JSON object.');
  }
  return { ...query, ...(body ?? {}), ...params };
}

/** How the shared `onRequest` hook authenticates the route (early-auth.ts), from the operation's access. */
function routeAuth(op: Operation): RouteAuth {
  if (op.signed === 'only') return 'signed_part';
  // A signed link needs no token; an unsigned request is authenticated by the handler (callerOf).
  if (op.access === 'public' || op.signed === 'or_token') return 'none';
  return 'bearer';
}

function callerFor(op: Operation, request: FastifyRequest, reply: FastifyReply, service: Service): Caller | null {
  if (op.access === 'public') return null;
  if (op.signed === 'or_token' && (request.query as Record<string, unknown>).signature !== undefined) return null;
  const caller = callerOf(request, service);
  if (caller.via === 'access_token') reply.header('Deprecation', 'true').header('Link', DEPRECATION_LINK);
  return caller;
}

function wantsEventStream(request: FastifyRequest): boolean {
  return request.headers.accept?.includes('text/event-stream') ?? false;
}

function route(server: FastifyInstance, service: Service, op: Operation, options: RouteShorthandOptions): void {
  server.route({
    ...options,
    method: op.http.method,
    url: `/api${op.http.path.replace(/\{([a-z_]+)\}/g, ':$1')}`,
    config: { auth: routeAuth(op), ...(op.http.bodyLimit !== undefined && bodyKind(op) === 'json' ? { bodyAtLeast: op.http.bodyLimit } : {}) },
    handler: async (request, reply) => {
      const caller = callerFor(op, request, reply, service);
      const input = inputOf(op, request);
      const mode = op.streaming?.mode;
      if (mode === 'always' || (mode === 'optional' && (input.stream === true || wantsEventStream(request)))) {
        const lastEventId = request.headers['last-event-id'];
        if (mode === 'always' && typeof lastEventId === 'string' && input.last_event_id === undefined) input.last_event_id = lastEventId;
        if (mode === 'optional') input.stream = true;
        return sendSse(request, reply, service.stream(op.name, input, caller));
      }
      let value: unknown;
      try {
        value = await service.invoke(op.name, input, caller);
      } catch (error) {
        // A streamed body refused before (or while) it is read is not read on.
        if (bodyKind(op) !== 'json') refuseUnread(request, reply);
        throw error;
      }
      if (op.response === 'file') return sendFile(reply, value as FileDownload);
      reply.status(op.http.status);
      return op.http.status === 204 ? reply.send() : value;
    },
  });
}

/**
 * One route per registry operation, all calling the one dispatcher (`service.invoke`/`stream`).
 * The body kind picks the parsing: JSON under `[server] body_limit_mb`; raw bytes passed on as a
 * stream, never buffered; multipart forms whose files are streamed to the handler one by one.
 */
export function registerOperations(app: FastifyInstance, service: Service, bodyLimit: preParsingAsyncHookHandler): void {
  const all = Object.values(operations) as Operation[];
  const ofKind = (kind: BodyKind) => all.filter((op) => bodyKind(op) === kind);
  for (const op of ofKind('json')) route(app, service, op, { preParsing: bodyLimit });

  app.register(async (raw) => {
    // Any body type: raw bytes, streamed as they arrive. A signed part's URL is checked before its body is read.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    for (const op of ofKind('raw')) route(raw, service, op, op.http.bodyLimit === undefined ? {} : { bodyLimit: op.http.bodyLimit });
  });

  app.register(async (forms) => {
    await forms.register(fastifyMultipart, { limits: { files: 100, fields: 10, fileSize: Number.MAX_SAFE_INTEGER } });
    for (const op of ofKind('multipart')) route(forms, service, op, {});
  });
}
