import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/catalogues/index.js';
import type { Message } from './types.js';

/** The sentence for each stable error code an answer can end with; any other code reads as `chat.error.other`. */
const BY_CODE: Readonly<Partial<Record<NonNullable<Message['error']>['code'], MessageId>>> = {
  rate_limited: 'chat.error.rateLimited',
  unavailable: 'chat.error.unavailable',
  upstream_error: 'chat.error.upstream',
  not_found: 'chat.error.notFound',
};

/** A trial's spent quota is refused as `rate_limited` too; only the quota left tells it from a busy service. */
export function isQuotaRefusal(message: Pick<Message, 'status' | 'error'>, quotaSpent: boolean): boolean {
  return quotaSpent && message.status === 'error' && message.error?.code === 'rate_limited';
}

function sentenceId(message: Pick<Message, 'status' | 'error'>, quotaSpent: boolean): MessageId {
  if (message.status === 'interrupted') return 'chat.error.interrupted';
  if (message.status === 'cancelled') return 'chat.error.cancelled';
  if (isQuotaRefusal(message, quotaSpent)) return 'chat.error.quotaSpent';
  return (message.error ? BY_CODE[message.error.code] : undefined) ?? 'chat.error.other';
}

/**
 * A failed or unfinished answer in one plain sentence; the technical detail is offered apart.
 * "broke off: terminated" tells a reader nothing they can act on.
 */
export function errorSentence(message: Pick<Message, 'status' | 'error' | 'content'>, intl: IntlShape, quotaSpent = false): string {
  const sentence = intl.formatMessage({ id: sentenceId(message, quotaSpent) });
  return message.content ? intl.formatMessage({ id: 'chat.error.kept' }, { sentence }) : sentence;
}
