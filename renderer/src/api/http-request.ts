import { ERROR_CODES, ServiceError, isErrorCode, type ErrorCode, type FieldError } from '../../../shared/errors.js';
import { pathParams, type HttpMethod, type Operation } from '../../../shared/operations/index.js';

export interface HttpRequest {
  method: HttpMethod;
  /** Path under the API base, with its query string. */
  path: string;
  /** JSON text, for methods that carry a body. */
  body: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function queryValue(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * An operation's HTTP binding applied to one input: `{param}`s of the path come from the input's
 * fields of the same name; the other fields become the query (GET, DELETE) or the JSON body.
 * The server merges the three back into one input, so the split is lossless.
 */
export function buildHttpRequest(op: Operation, input: unknown): HttpRequest {
  const rest: Record<string, unknown> = isRecord(input) ? { ...input } : {};
  let path = op.http.path;
  for (const name of pathParams(op.http.path)) {
    const value = rest[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new ServiceError('invalid_argument', `${name} is required`, [{ path: name, message: 'Required' }]);
    }
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    delete rest[name];
  }
  const { method } = op.http;
  if (method === 'GET' || method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(key, queryValue(item));
    }
    const search = query.toString();
    return { method, path: search ? `${path}?${search}` : path, body: undefined };
  }
  return { method, path, body: JSON.stringify(rest) };
}

function codeForStatus(status: number): ErrorCode {
  const known = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code] === status);
  if (known) return known;
  return status >= 500 ? 'internal' : 'invalid_argument';
}

function fieldErrors(value: unknown): FieldError[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((e) => ({
    path: String(e.path ?? ''),
    message: String(e.message ?? ''),
    ...(typeof e.line === 'number' ? { line: e.line } : {}),
    ...(typeof e.column === 'number' ? { column: e.column } : {}),
  }));
}

/**
 * A failed answer as a `ServiceError`: problem+json keeps its code, detail and field errors; anything
 * else (a proxy's HTML page, an empty body) still gets the code its status means.
 */
export async function problemToError(response: Response): Promise<ServiceError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (isRecord(body) && isErrorCode(body.code)) {
    const detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : response.statusText;
    return new ServiceError(body.code, detail, fieldErrors(body.errors));
  }
  const statusText = response.statusText ? ` ${response.statusText}` : '';
  return new ServiceError(codeForStatus(response.status), `The service answered ${response.status}${statusText}.`);
}
