import type { ErrorCode } from '../../../shared/errors.js';
import { redactSecrets } from '../platform/secrets/redact.js';

/** A model call that could not give an answer: its code and a detail safe to show whoever asked. */
export class AnswerFailed extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
  ) {
    // Stored on the message and shown to whoever asked: never a credential an upstream echoed.
    super(redactSecrets(detail));
    this.name = 'AnswerFailed';
  }
}
