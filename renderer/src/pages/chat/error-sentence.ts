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

function sentenceId(message: Pick<Message, 'status' | 'error'>): MessageId {
  if (message.status === 'interrupted') return 'chat.error.interrupted';
  if (message.status === 'cancelled') return 'chat.error.cancelled';
  return (message.error ? BY_CODE[message.error.code] : undefined) ?? 'chat.error.other';
}

/**
 * A failed or unfinished answer in one plain sentence; the technical detail is offered apart.
 * "broke off: terminated" tells a reader nothing they can act on.
 */
export function errorSentence(message: Pick<Message, 'status' | 'error' | 'content'>, intl: IntlShape): string {
  const sentence = intl.formatMessage({ id: sentenceId(message) });
  return message.content ? intl.formatMessage({ id: 'chat.error.kept' }, { sentence }) : sentence;
}
