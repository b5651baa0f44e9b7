/**
 * Every credential is checked on the request's headers, before a byte of its body is read: a
 * request with no token, a bad token or a forged part signature is answered 401/403 at once and its
 * connection closed, so announcing a large body and stalling costs the sender one refused request,
 * not a socket and a buffer held for Node's whole request timeout (issue 27, item 5).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../shared/errors.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';
import { signedPartOf } from '../../core/knowledge/uploads/part-url.js';

/**
 * How a route proves who calls it; routes say so in their `config.auth`. `api_key`: Anthropic's
 * `x-api-key` header, else a Bearer token (what Anthropic's SDK sends for `authToken`).
 */
export type RouteAuth = 'bearer' | 'api_key' | 'signed_part' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

const callers = new WeakMap<FastifyRequest, Caller>();

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = BEARER.exec(header);
  if (!match) throw new ServiceError('unauthenticated', 'The Authorization header must be `Bearer <token>`.');
  return match[1];
}

function tokenOf(request: FastifyRequest, auth: RouteAuth): string | undefined {
  const key = request.headers['x-api-key'];
  if (auth === 'api_key' && typeof key === 'string' && key.length > 0) return key;
  return bearerToken(request);
}

/** Routes outside the registry that take only a Bearer token, whoever registers them (/v1, /mcp). */
function bearerByPath(url: string | undefined): boolean {
  return url !== undefined && (url.startsWith('/v1/') || url === '/mcp');
}

function authOf(request: FastifyRequest): RouteAuth {
  const declared = request.routeOptions.config.auth;
  if (declared) return declared;
  return bearerByPath(request.routeOptions.url) ? 'bearer' : 'none';
}

/**
 * A refused request's body is never read: the answer goes out with `Connection: close`, and Node
 * ends the connection once it is written instead of reading on to the end of the body.
 */
export function refuseUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('Connection', 'close');
  request.raw.unpipe();
  request.raw.pause();
}

/**
 * The shared `onRequest` hook (after the Host check and CORS): authenticates every route that needs
 * it from its headers alone. The caller found is kept for the handler (`callerOf`).
 */
export function authenticateEarly(app: FastifyInstance, service: Service): void {
  app.addHook('onRequest', async (request, reply) => {
    const auth = authOf(request);
    if (auth === 'none') return;
    try {
      if (auth === 'signed_part') {
        const { grant, signature } = signedPartOf({ ...(request.params as object), ...(request.query as object) });
        service.checkPartUrl(grant, signature);
      } else {
        callers.set(request, service.authenticate(tokenOf(request, auth)));
      }
    } catch (error) {
      refuseUnread(request, reply);
      throw error;
    }
  });
}

/** The caller the hook authenticated; a route the hook does not cover authenticates here. */
export function callerOf(request: FastifyRequest, service: Service): Caller {
  return callers.get(request) ?? service.authenticate(tokenOf(request, authOf(request)));
}
