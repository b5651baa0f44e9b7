/**
 * The HTTP layer's own errors, answered as problems like every other error: a URL that cannot be
 * decoded (400), a path parameter too long (414) — both after the Host check, which comes first —
 * and what Node's parser refuses before any request exists (a malformed request line 400, headers
 * too large 431, a request too slow 408), written straight to the socket.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_VERSION, API_VERSION_HEADER } from '../../../shared/api-version.js';
import { ERROR_CODES, ServiceError, errorTitle, type ErrorCode } from '../../../shared/errors.js';
import { isLoopbackHost } from './host-guard.js';
import { problemBody } from './problem.js';

export const FOREIGN_HOST_DETAIL = 'This server answers only to loopback host names (127.0.0.1, localhost, [::1]).';

function send(reply: FastifyReply, error: ServiceError): FastifyReply {
  return reply.status(error.status).header(API_VERSION_HEADER, API_VERSION).type('application/problem+json').send(problemBody(error.toPayload()));
}

/** Fastify's `frameworkErrors`: the router's refusals, after the Host check. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (!isLoopbackHost(request.headers.host)) {
    void send(reply, new ServiceError('forbidden', FOREIGN_HOST_DETAIL));
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void send(reply, new ServiceError('uri_too_long', 'A path segment of this URL is too long.'));
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void send(reply, new ServiceError('invalid_argument', 'The URL is not valid percent-encoding.'));
    return;
  }
  void send(reply, new ServiceError('invalid_argument', 'The request could not be routed.'));
}

function rawProblem(code: ErrorCode, detail: string): string {
  const status = ERROR_CODES[code];
  const body = JSON.stringify({ type: `urn:parley:problem:${code}`, code, title: errorTitle(code), detail, status });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    `Content-Type: application/problem+json\r\n${API_VERSION_HEADER}: ${API_VERSION}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Fastify's `clientErrorHandler`: Node could not parse a request; no Host can be read, so none is checked. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let response: string;
  if (error.code === 'HPE_HEADER_OVERFLOW') response = rawProblem('headers_too_large', 'The request line and headers are larger than the server accepts (16 KB).');
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') response = rawProblem('request_timeout', 'The request did not arrive in time.');
  else response = rawProblem('invalid_argument', 'The request is not valid HTTP.');
  if (socket.writable) socket.end(response);
  socket.destroy();
}
