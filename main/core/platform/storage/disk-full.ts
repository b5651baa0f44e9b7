/**
 * A full disk (or an exhausted quota) is the user's to fix, not a bug: it answers 507
 * `insufficient_storage` with a clear detail instead of a 500. Everything else passes through.
 */
import { ServiceError } from '../../../../shared/errors.js';
import { StorageFullError } from '../../../db/errors.js';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** A file write that hit ENOSPC/EDQUOT, or a database write the repositories typed as full. */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  return typeof error === 'object' && error !== null && DISK_FULL_CODES.has(String((error as NodeJS.ErrnoException).code));
}

export function diskFullError(): ServiceError {
  return new ServiceError('insufficient_storage', 'The disk that holds Parley’s data directory is full; free some space and try again. Nothing was half-written.');
}

/** The error to answer for a failed write: 507 for a full disk, else the error itself. */
export function storageError(error: unknown): unknown {
  return isDiskFull(error) ? diskFullError() : error;
}
