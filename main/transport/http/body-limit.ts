import type { FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { Transform, type Readable } from 'node:stream';
import type { Config } from '../../../shared/config.js';
import { ServiceError } from '../../../shared/errors.js';

const MB = 1024 * 1024;

/**
 * The largest body Fastify itself reads: the schema's upper bound for `[server] body_limit_mb`.
 * The limit in force is checked per request by `liveBodyLimit`, so a saved change applies at once
 * (Fastify fixes its own limit when the app is built).
 */
export const BODY_LIMIT_CEILING = 100 * MB;

function tooLarge(limit: number): ServiceError {
  return new ServiceError('payload_too_large', `The request body is larger than the limit of ${Math.round((limit / MB) * 100) / 100} MB ([server] body_limit_mb).`);
}

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(length) ? length : undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A JSON route whose valid bodies can be larger (chat.send with images): its limit is at least this many bytes. */
    bodyAtLeast?: number;
  }
}

/**
 * A preParsing hook for JSON routes: refuses bodies over `[server] body_limit_mb` as configured now,
 * or over the route's own `bodyAtLeast` when that is larger (the operation's `http.bodyLimit`).
 */
export function liveBodyLimit(config: () => Config): preParsingAsyncHookHandler {
  return async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    const limit = Math.max(Math.round(config().server.body_limit_mb * MB), request.routeOptions.config.bodyAtLeast ?? 0);
    if ((declaredLength(request) ?? 0) > limit) throw tooLarge(limit);
    // A chunked body declares no length: count it as it arrives.
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        done(seen > limit ? tooLarge(limit) : null, chunk);
      },
    });
    (payload as Readable).on('error', (error) => counted.destroy(error));
    return (payload as Readable).pipe(counted);
  };
}
