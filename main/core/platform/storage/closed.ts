/**
 * A request still under way when Parley shuts down (served mode closes the database once the
 * answers under way are stored, and only then drains the HTTP server) may find the database closed:
 * that is the shutdown, not a bug, and it answers as every request does meanwhile — 503
 * `unavailable` — instead of a 500 logged as unexpected. Nothing was written.
 */
import { ServiceError } from '../../../../shared/errors.js';
import { isStorageClosed } from '../../../db/errors.js';

export const isShuttingDown = isStorageClosed;

export function shuttingDownError(): ServiceError {
  return new ServiceError('unavailable', 'Parley is shutting down, so this request was not completed (nothing of it was stored); try again once it has restarted.');
}
