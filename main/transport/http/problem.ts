import { diskFullError, isDiskFull } from '../../core/platform/storage/disk-full.js';
import { isShuttingDown, shuttingDownError } from '../../core/platform/storage/closed.js';
import { corruptRecordError, isCorruptRecord } from '../../core/platform/storage/corrupt-record.js';
import { AnswerFailed } from '../../core/answering/answer-failed.js';
import { ERROR_CODES, ServiceError, errorTitle, isErrorCode, type ErrorCode, type ErrorPayload } from '../../../shared/errors.js';

/** The RFC 9457 body every error answers with. `type` is a stable URN per code. */
export function problemBody(payload: ErrorPayload) {
  return { type: `urn:parley:problem:${payload.code}`, ...payload };
}

const BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_argument',
  404: 'not_found',
  405: 'not_found',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
};

/**
 * Any thrown value → the payload to answer. Expected failures keep their code; Fastify's own 4xx
 * (bad JSON, body too large, wrong content type) map by status; anything else is `internal` with a
 * generic detail, the real error going to the log only.
 */
export function toErrorPayload(error: unknown): { payload: ErrorPayload; unexpected: boolean } {
  if (error instanceof ServiceError) return { payload: error.toPayload(), unexpected: false };
  if (error instanceof AnswerFailed) return { payload: answerFailure(error), unexpected: false };
  // Whatever write hit a full disk: a clear 507, not a 500.
  if (isDiskFull(error)) return { payload: diskFullError().toPayload(), unexpected: false };
  // A request still under way when the database closed at shutdown: the 503 every request then gets.
  if (isShuttingDown(error)) return { payload: shuttingDownError().toPayload(), unexpected: false };
  // A stored value Parley cannot read: named, and logged with its cause for whoever mends it.
  if (isCorruptRecord(error)) return { payload: corruptRecordError(error).toPayload(), unexpected: true };
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
  const code = BY_STATUS[status];
  if (code && status < 500) {
    const detail = error instanceof Error ? error.message : errorTitle(code);
    return { payload: { code, title: errorTitle(code), detail, status: ERROR_CODES[code] }, unexpected: false };
  }
  return {
    payload: { code: 'internal', title: errorTitle('internal'), detail: 'Something went wrong on our side; it has been logged.', status: 500 },
    unexpected: true,
  };
}

/**
 * A model that could not answer, thrown out of a `/v1` completion: a limit or a refusal the caller
 * can act on (quota, rate, a request the model cannot take, nothing available: status < 500 or 503)
 * keeps its code; the upstream's own failure (refused key, 5xx, dropped stream) is 502
 * `upstream_error` with its redacted reason — never a 500.
 */
function answerFailure(error: AnswerFailed): ErrorPayload {
  const status = ERROR_CODES[error.code];
  if (status < 500 || status === 503) return { code: error.code, title: errorTitle(error.code), status, detail: error.message };
  return { code: 'upstream_error', title: errorTitle('upstream_error'), status: 502, detail: error.message };
}

export { isErrorCode };
