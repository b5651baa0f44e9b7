import type { FastifyRequest } from 'fastify';
import type { ErrorPayload } from '../../../shared/errors.js';
import type { Service } from '../../core/service/service.js';
import { callerOf } from './early-auth.js';

/** OpenAI's error envelope, which its SDKs and the tools built on them parse; `code` is Parley's stable code. */
export function openAiError(payload: ErrorPayload) {
  const type = payload.status === 401 ? 'authentication_error' : payload.status === 429 ? 'rate_limit_error' : payload.status >= 500 ? 'api_error' : 'invalid_request_error';
  return { error: { message: payload.detail, type, param: payload.errors?.[0]?.path ?? null, code: payload.code } };
}

/** The caller of a `/v1` request, from its `Authorization: Bearer` header (as OpenAI's SDKs send the key), checked before its body was read. */
export function openAiCaller(service: Service, request: FastifyRequest) {
  return callerOf(request, service);
}
