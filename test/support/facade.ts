import { expect } from 'vitest';
import type { FacadeRoute } from '../../main/transport/http/facade-routes.js';

/** A request to a declared `/v1` route: its parameters filled in, the key sent as that API's clients send it. */
export function facadeFetch(baseUrl: string, route: FacadeRoute, options: { token: string | null; params?: Record<string, string> | undefined; body?: unknown; rawBody?: string }) {
  const params = { ...route.sample.params, ...options.params };
  const path = route.url.replace(/:([a-z_]+)/g, (_, p: string) => encodeURIComponent(params[p] ?? 'x'));
  const headers: Record<string, string> = {};
  if (options.token !== null) {
    if (route.credential === 'x-api-key') headers['x-api-key'] = options.token;
    else headers.authorization = `Bearer ${options.token}`;
  }
  const body = route.method === 'GET' ? undefined : (options.rawBody ?? JSON.stringify(options.body === undefined ? route.sample.body : options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${baseUrl}${path}`, { method: route.method, headers, ...(body === undefined ? {} : { body }) });
}

/**
 * An error answer in the route's own API shape, with a stable machine code: OpenAI's
 * `{ error: { message, type, param, code } }`, Anthropic's `{ type: "error", error: { type, message } }`.
 * Returns the code (OpenAI's `code`, Anthropic's `error.type`).
 */
export function expectFacadeError(route: FacadeRoute, status: number, text: string, label: string): string {
  expect(text, label).not.toMatch(/\bat .*\.(ts|js):\d+/);
  const body = JSON.parse(text) as { type?: unknown; error?: { type?: unknown; message?: unknown; code?: unknown } };
  if (route.errors === 'openai') {
    expect(body.error, label).toMatchObject({ message: expect.any(String), type: expect.any(String), code: expect.stringMatching(/^[a-z_]+$/) });
    if (status === 401) expect(body.error?.type, label).toBe('authentication_error');
    return String(body.error?.code);
  }
  expect(body, label).toMatchObject({ type: 'error', error: { type: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String) } });
  if (status === 401) expect(body.error?.type, label).toBe('authentication_error');
  return String(body.error?.type);
}
