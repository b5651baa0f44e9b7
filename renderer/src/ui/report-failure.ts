import { ServiceError } from '../../../shared/errors.js';
import { errorText } from './error-text.js';
import { toast, type ToastLink } from './toast.js';

/**
 * Says, in a toast, that work done out of view failed. A lost connection is left out: the shell
 * says that once for every request (app/ConnectionToasts), not once per request that failed.
 */
export function reportFailure(title: string, error: unknown, link?: ToastLink): void {
  if (error instanceof ServiceError && error.code === 'unavailable') return;
  toast.error(title, errorText(error), link);
}
