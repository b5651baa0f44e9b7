/**
 * The one error type of the service. Every failure a caller can see carries a stable `code`;
 * each transport maps it once (HTTP: problem+json with a status; IPC: `{ ok: false, error }`).
 */
export const ERROR_CODES = {
  invalid_argument: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  endpoint_removed: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  /** A stored record holds a value Parley did not write there (edited by hand, a damaged disk): it cannot be read. */
  corrupt_record: 500,
  upstream_error: 502,
  /** An answer passed its ceiling (`[chat] max_answer_tokens`): stopped there, its text kept. */
  answer_too_long: 502,
  unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One field-level problem, as in `errors: [{ path, message }]`; config errors add line and column. */
export interface FieldError {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/** The serialisable form of a `ServiceError`: what crosses IPC and what problem+json carries. */
export interface ErrorPayload {
  code: ErrorCode;
  title: string;
  detail: string;
  status: number;
  errors?: FieldError[];
}

const TITLES: Record<ErrorCode, string> = {
  invalid_argument: 'Invalid argument',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  request_timeout: 'Request timeout',
  conflict: 'Conflict',
  endpoint_removed: 'Endpoint removed',
  payload_too_large: 'Payload too large',
  uri_too_long: 'URI too long',
  unsupported_media_type: 'Unsupported media type',
  unprocessable: 'Unprocessable content',
  rate_limited: 'Rate limited',
  headers_too_large: 'Request header fields too large',
  internal: 'Internal error',
  corrupt_record: 'Corrupt record',
  upstream_error: 'Upstream error',
  answer_too_long: 'Answer too long',
  unavailable: 'Service unavailable',
  insufficient_storage: 'Insufficient storage',
};

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;

  constructor(code: ErrorCode, detail: string, errors?: FieldError[]) {
    super(detail);
    this.name = 'ServiceError';
    this.code = code;
    this.errors = errors;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  toPayload(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, title: TITLES[this.code], detail: this.message, status: this.status };
    if (this.errors) payload.errors = this.errors;
    return payload;
  }

  /** Rebuilds the error on the far side of a transport, code intact. */
  static fromPayload(payload: ErrorPayload): ServiceError {
    return new ServiceError(payload.code, payload.detail, payload.errors);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export function errorTitle(code: ErrorCode): string {
  return TITLES[code];
}

/** What a caught value says: its message when it is an Error. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
