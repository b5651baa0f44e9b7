import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION, API_VERSION_HEADER } from '../../../shared/api-version.js';
import type { Config } from '../../../shared/config.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Service } from '../../core/service/service.js';
import { BODY_LIMIT_CEILING, liveBodyLimit } from './body-limit.js';
import { clientErrorHandler, FOREIGN_HOST_DETAIL, frameworkErrors } from './framework-errors.js';
import type { Drain } from './drain.js';
import { authenticateEarly, callerOf } from './early-auth.js';
import { isLoopbackHost } from './host-guard.js';
import { buildOpenApi } from './openapi.js';
import { problemBody, toErrorPayload } from './problem.js';
import { registerOpenAiFacade } from './openai-facade.js';
import { assertDeclaredFacadeRoute } from './facade-routes.js';
import { registerAnthropicFacade } from './anthropic-facade.js';
import { registerOperations } from './operation-routes.js';
import { registerOidcRoutes } from './oidc-routes.js';
import { registerMcpRoutes } from '../mcp/http.js';

export interface HttpAppOptions {
  service: Service;
  config: () => Config;
  appVersion: string;
  /** Built renderer to serve at `/` (served mode); omitted in the desktop app. */
  rendererDir?: string | undefined;
  logger?: boolean;
  /** The process's logger (main/logging): unexpected errors are logged through it. */
  loggerInstance?: FastifyBaseLogger | undefined;
  /** Answers new requests 503 while a shutdown waits for those under way (server.ts). */
  drain?: Drain | undefined;
}

/** The renderer's own page may load only its own code; same policy as the desktop window. */
const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

const CORS_REFUSED_DETAIL = 'Cross-origin requests from this origin are not allowed (see [server] cors_origins).';

/**
 * Builds the HTTP app (not listening): one route per registry operation, all calling the same
 * service as IPC does. Tests build it and listen on port 0.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const { service, config } = options;
  const app = Fastify({
    // Warnings and errors only: no access log of every request (URLs carry signed-URL signatures).
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance.child({}, { level: 'warn' }) } : { logger: options.logger ?? false }),
    // JSON routes check `[server] body_limit_mb` as configured now (liveBodyLimit); this is the ceiling.
    bodyLimit: BODY_LIMIT_CEILING,
    // While shutting down, new requests get 503 instead of hanging.
    return503OnClosing: true,
    // Artifact keys may be 1,024 characters, percent-encoded up to nine bytes each.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 10_000 },
    // The HTTP layer's own errors are problems too (framework-errors.ts).
    frameworkErrors,
    clientErrorHandler,
    // A request without Host is refused by the Host check (a problem), not by Node's bare 400.
    http: { requireHostHeader: false },
  });
  // A /v1 route missing from facade-routes.ts would escape the auth matrix and the fuzz sweep: refused at start.
  app.addHook('onRoute', (route) => assertDeclaredFacadeRoute(route.method, route.url));

  app.setErrorHandler((error, request, reply) => {
    const { payload, unexpected } = toErrorPayload(error);
    if (unexpected) request.log.error({ err: error, method: request.method, url: request.url.split('?')[0] }, `unexpected error answering ${request.method} ${request.url.split('?')[0]}`);
    return sendProblem(reply, payload.status, problemBody(payload));
  });
  app.setNotFoundHandler((request, reply) => {
    // The CORS plugin answers every preflight it allows; one it passes on came from an origin
    // that is not in `[server] cors_origins` (or had no Origin at all).
    if (request.method === 'OPTIONS') {
      const payload = new ServiceError('forbidden', CORS_REFUSED_DETAIL).toPayload();
      return sendProblem(reply, payload.status, problemBody(payload));
    }
    if (options.rendererDir && request.method === 'GET' && !/^\/(api|v1|mcp)(\/|$)/.test(request.url) && request.headers.accept?.includes('text/html')) {
      reply.header('Content-Security-Policy', RENDERER_CSP);
      return reply.sendFile('index.html');
    }
    const payload = new ServiceError('not_found', `Nothing at ${request.method} ${request.url.split('?')[0]}.`).toPayload();
    return sendProblem(reply, 404, problemBody(payload));
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header(API_VERSION_HEADER, API_VERSION);
    if (!isLoopbackHost(request.headers.host)) {
      throw new ServiceError('forbidden', FOREIGN_HOST_DETAIL);
    }
  });
  options.drain?.install(app);
  // After the Host check (hooks run in the order they are added): a foreign Host gets no preflight.
  await app.register(fastifyCors, {
    // Read on every request, so that a saved `[server] cors_origins` applies at once.
    origin: (origin, callback) => callback(null, origin !== undefined && config().server.cors_origins.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID', 'X-Api-Key', 'Anthropic-Version'],
    exposedHeaders: ['Parley-Api-Version', 'Deprecation', 'Link'],
    maxAge: 600,
    // An allowed origin's OPTIONS without Access-Control-Request-Method is answered like a
    // preflight (as before) instead of with the plugin's plain-text 400.
    strictPreflight: false,
  });

  // After the Host check and CORS, before any body is read: every credential, on every route (/v1 too).
  authenticateEarly(app, service);

  app.get('/api/openapi.json', async () => buildOpenApi(options.appVersion));

  // The old chat endpoint is gone for good; say where to go instead, whatever the method.
  app.all('/api/chat/api', async () => {
    throw new ServiceError('endpoint_removed', '/api/chat/api has been removed; send messages with POST /api/chat.');
  });

  const bodyLimit = liveBodyLimit(config);
  registerOperations(app, service, bodyLimit);
  registerOidcRoutes(app, service);
  registerOpenAiFacade(app, service, bodyLimit);
  registerAnthropicFacade(app, service, bodyLimit);
  registerMcpRoutes(app, { service, version: options.appVersion, authenticate: (request) => callerOf(request, service), bodyLimit });

  if (options.rendererDir && existsSync(join(options.rendererDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: options.rendererDir,
      // A route per file (a glob walk at start, ~50 ms of CPU): with one wildcard route instead, a
      // path like /../x reached @fastify/send, whose 403 became a 500 here (tried 2026-11-23, reverted).
      wildcard: false,
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('Content-Security-Policy', RENDERER_CSP);
      },
    });
  }
  return app;
}

function sendProblem(reply: FastifyReply, status: number, body: object) {
  return reply.status(status).type('application/problem+json').send(body);
}
