import { ServiceError } from '../../../shared/errors.js';
import { operations } from '../../../shared/operations/index.js';
import { buildHttpRequest, problemToError } from './http-request.js';
import { openSseStream } from './sse-stream.js';
import type { Transport } from './transport.js';

export interface HttpTransportOptions {
  /** Where the API lives, e.g. `http://127.0.0.1:4317/api`. */
  baseUrl: string;
  /** The bearer token of each request, read at call time so signing in or out needs no new transport. */
  token: () => string | null;
  fetch?: typeof fetch;
}

/** Browser (served mode): each operation becomes the request its registry entry binds it to. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    async invoke(operation, input) {
      const op = operations[operation];
      const request = buildHttpRequest(op, input);
      const headers: Record<string, string> = { Accept: 'application/json' };
      const token = options.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      if (request.body !== undefined) headers['Content-Type'] = 'application/json';

      let response: Response;
      try {
        response = await doFetch(`${base}${request.path}`, { method: request.method, headers, body: request.body ?? null });
      } catch {
        throw new ServiceError('unavailable', `Could not reach the Parley service at ${base}. Is it running?`);
      }
      if (!response.ok) throw await problemToError(response);
      if (response.status === 204) return null;
      try {
        return await response.json();
      } catch {
        throw new ServiceError('internal', `The service answered ${operation} with something that is not JSON.`);
      }
    },
    async uploadPart(url, bytes) {
      // Absolute whenever the server runs; resolved against the API's own origin otherwise.
      const target = new URL(url, base);
      let response: Response;
      try {
        // No bearer token: the signed URL itself is the permission.
        response = await doFetch(target, { method: 'PUT', body: bytes });
      } catch {
        throw new ServiceError('unavailable', `Could not reach the Parley service at ${target.origin}. Is it running?`);
      }
      if (!response.ok) throw await problemToError(response);
    },
    stream(operation, input, streamOptions, onSignal) {
      return openSseStream({ base, token: options.token, fetch: doFetch }, operation, input, streamOptions, onSignal);
    },
  };
}
