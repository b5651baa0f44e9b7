import { ServiceError, errorTitle, type ErrorPayload } from '../../../shared/errors.js';
import { corruptRecordError, isCorruptRecord } from '../../core/platform/storage/corrupt-record.js';
import { diskFullError, isDiskFull } from '../../core/platform/storage/disk-full.js';

/** What the renderer is told when something unexpected fails: the real error stays in main's log. */
export const INTERNAL_DETAIL = 'Something went wrong inside Parley; the details are in its log.';

/**
 * Any thrown value → what crosses IPC. Expected failures keep their code and detail; anything else
 * becomes `internal` with a generic detail, because its message or stack may name paths or data.
 */
export function toIpcError(error: unknown): { payload: ErrorPayload; unexpected: boolean } {
  if (error instanceof ServiceError) return { payload: error.toPayload(), unexpected: false };
  // A full disk is the user's to fix: 507 with a clear detail, as over HTTP.
  if (isDiskFull(error)) return { payload: diskFullError().toPayload(), unexpected: false };
  // A stored value Parley cannot read: named, as over HTTP, and logged with its cause.
  if (isCorruptRecord(error)) return { payload: corruptRecordError(error).toPayload(), unexpected: true };
  return { payload: { code: 'internal', title: errorTitle('internal'), detail: INTERNAL_DETAIL, status: 500 }, unexpected: true };
}

/** Logs what should not have happened; injected so tests can see it and Electron can route it. */
export type LogError = (message: string, error: unknown) => void;
