import { ServiceError, errorTitle, type ErrorPayload } from '../../../shared/errors.js';

/** What the renderer is told when something unexpected fails: the real error stays in main's log. */
export const INTERNAL_DETAIL = 'Something went wrong inside Parley; the details are in its log.';

/**
 * Any thrown value → what crosses IPC. Expected failures keep their code and detail; anything else
 * becomes `internal` with a generic detail, because its message or stack may name paths or data.
 */
export function toIpcError(error: unknown): { payload: ErrorPayload; unexpected: boolean } {
  if (error instanceof ServiceError) return { payload: error.toPayload(), unexpected: false };
  return { payload: { code: 'internal', title: errorTitle('internal'), detail: INTERNAL_DETAIL, status: 500 }, unexpected: true };
}

/** Logs what should not have happened; injected so tests can see it and Electron can route it. */
export type LogError = (message: string, error: unknown) => void;
