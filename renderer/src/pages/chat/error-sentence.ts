import type { Message } from './types.js';

/**
 * A failed or unfinished answer in one plain sentence; the technical detail is offered apart.
 * "broke off: terminated" tells a reader nothing they can act on.
 */
export function errorSentence(message: Pick<Message, 'status' | 'error' | 'content'>): string {
  const kept = message.content ? ' What it wrote so far is kept.' : '';
  if (message.status === 'interrupted') return `Parley stopped while this answer was being written.${kept}`;
  if (message.status === 'cancelled') return `You stopped this answer.${kept}`;
  switch (message.error?.code) {
    case 'rate_limited':
      return `The model's service is busy right now.${kept}`;
    case 'unavailable':
      return `No model could answer just now.${kept}`;
    case 'upstream_error':
      return `The model stopped answering before it was done.${kept}`;
    case 'not_found':
      return `The model that was answering is no longer available.${kept}`;
    default:
      return `Something went wrong while this answer was written.${kept}`;
  }
}
