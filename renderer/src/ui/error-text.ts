import type { IntlShape } from 'react-intl';
import { ServiceError, type ErrorCode } from '../../../shared/errors.js';
import type { MessageId } from '../i18n/catalogues/index.js';
import { getIntl } from '../i18n/intl.js';

/** The catalogue's sentence for each stable code (area `errors`). */
const CODE_SENTENCES: Record<ErrorCode, MessageId> = {
  invalid_argument: 'errors.code.invalid_argument',
  unauthenticated: 'errors.code.unauthenticated',
  forbidden: 'errors.code.forbidden',
  not_found: 'errors.code.not_found',
  request_timeout: 'errors.code.request_timeout',
  conflict: 'errors.code.conflict',
  endpoint_removed: 'errors.code.endpoint_removed',
  payload_too_large: 'errors.code.payload_too_large',
  uri_too_long: 'errors.code.uri_too_long',
  unsupported_media_type: 'errors.code.unsupported_media_type',
  unprocessable: 'errors.code.unprocessable',
  rate_limited: 'errors.code.rate_limited',
  headers_too_large: 'errors.code.headers_too_large',
  internal: 'errors.code.internal',
  corrupt_record: 'errors.code.corrupt_record',
  upstream_error: 'errors.code.upstream_error',
  answer_too_long: 'errors.code.answer_too_long',
  unavailable: 'errors.code.unavailable',
  insufficient_storage: 'errors.code.insufficient_storage',
};

/** Whether the service's own words (English) are what this person reads. */
const readsEnglish = (intl: IntlShape) => intl.locale === 'en';

/**
 * What to show for a rejected call, in the user's language. A `ServiceError` is worded by its
 * stable code; in English the service's own message stands, as it is the more specific. Field
 * errors carry details no code can say: other languages show them after the code's sentence.
 * Any other error is our own code's, already worded by it. `intl` defaults to the language in use.
 */
export function errorText(error: unknown, intl: IntlShape = getIntl()): string {
  if (!(error instanceof ServiceError)) return error instanceof Error ? error.message : String(error);
  if (readsEnglish(intl)) return error.message;
  const sentence = intl.formatMessage({ id: CODE_SENTENCES[error.code] });
  if (!error.errors?.length) return sentence;
  return intl.formatMessage({ id: 'errors.withDetail' }, { sentence, detail: error.message });
}

/**
 * The service's own message when `errorText` did not show it (another language worded the error
 * by its code), for a `title` or a details line; null when there is nothing more to say.
 */
export function errorDetail(error: unknown, intl: IntlShape = getIntl()): string | null {
  if (!(error instanceof ServiceError) || readsEnglish(intl)) return null;
  return error.errors?.length ? null : error.message;
}
