import type { ErrorCode } from '../../../shared/errors.js';
import { cutUtf8 } from '../../../shared/bytes.js';
import { estimateTokens } from '../platform/tokens.js';
import { nextTurn } from '../platform/next-turn.js';
import { AnswerFailed } from './answer-failed.js';
import { errorText } from '../../../shared/errors.js';

/**
 * The one way a streamed answer is written, whoever asked for it (chat, comparisons, agents) and
 * whichever provider writes it: text accumulates as deltas arrive, what is new is appended to the
 * stored text every `intervalMs` (never the whole text again: a long answer would cost its whole
 * length every save), and the end — text, status and usage — is saved once, in one transaction,
 * whatever the end is. An answer never passes `maxBytes`: an upstream that ignores `max_tokens`
 * is stopped there, its text kept up to the ceiling, and the answer ends as `answer_too_long`.
 */

export type AnswerStatus = 'complete' | 'error' | 'cancelled' | 'interrupted';
export interface AnswerFailure {
  code: ErrorCode;
  detail: string;
}
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Why an answer's signal was aborted: the user cancelled, or the app is shutting down. */
export type AbortReason = 'cancel' | 'shutdown';

export const INTERRUPTED: AnswerFailure = { code: 'unavailable', detail: 'Parley stopped while this answer was being written; the text so far is kept.' };

/** Bytes of text one token may take at most, for the byte ceiling that goes with a token ceiling. */
export const BYTES_PER_TOKEN_CEILING = 16;

/** The byte ceiling of an answer of at most `maxTokens` tokens. */
export const answerByteCap = (maxTokens: number) => maxTokens * BYTES_PER_TOKEN_CEILING;

/** When a caller names no ceiling: `[chat] max_answer_tokens`'s default. */
export const DEFAULT_ANSWER_BYTES = answerByteCap(8192);

/** Text is saved at least this often while it streams. */
export const FLUSH_INTERVAL_MS = 250;

/** How the periodic save is scheduled; tests pass fake timers or drive it by hand. */
export interface FlushTimer {
  every(ms: number, fn: () => void): () => void;
}
export const realFlushTimer: FlushTimer = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
};

export interface AnswerEnd {
  content: string;
  status: AnswerStatus;
  /** Set for `error` (what failed) and `interrupted` (stopped by shutdown); null otherwise. */
  failure: AnswerFailure | null;
  /** What the provider reported, or an estimate when it reported nothing. */
  usage: TokenUsage;
}

/** Where one answer is stored: a chat message, a comparison's response. */
export interface AnswerStore {
  /** Appends text streamed since the last save; a finished answer is never changed by a late save. */
  appendText(text: string): void;
  /** Saves the end. Called inside the transaction that also records the usage. */
  saveEnd(end: AnswerEnd): void;
  recordUsage(usage: TokenUsage): void;
}

export interface AnswerOptions {
  store: AnswerStore;
  /** Runs `fn` in one transaction (the repositories'). */
  transaction: <T>(fn: () => T) => T;
  /** The prompt as sent, to estimate input tokens when the provider reports none. */
  prompt: string;
  /** Text the answer already has (a continued answer): kept and added to. */
  prefix?: string | undefined;
  intervalMs?: number | undefined;
  timer?: FlushTimer | undefined;
  /** Bytes (UTF-8) the whole text may take, kept text included; DEFAULT_ANSWER_BYTES when unset. */
  maxBytes?: number | undefined;
  /** Waits for the next turn of the event loop, after every TURN_TEXT_BYTES of text (tests count the waits). */
  pause?: (() => Promise<void>) | undefined;
}

/**
 * Text written between two turns of the event loop. Deltas that are already buffered (a fast
 * upstream, a socket that filled while Parley was busy) reach the loop below as resolved promises:
 * without a turn now and then, a whole buffer's worth of answer is written before any other
 * request is looked at.
 */
export const TURN_TEXT_BYTES = 32 * 1024;
export { nextTurn };

/** What an answer's event stream carries besides its own kinds: text and the provider's usage. */
export type TextEvent = { type: 'delta'; text: string } | { type: 'usage'; input_tokens: number; output_tokens: number };

export interface AnswerCallbacks<E> {
  /** Every delta, in order (to stream it on). */
  onDelta: (text: string) => void;
  /** Every other event, in order. */
  onEvent?: ((event: E) => void) | undefined;
}

/** Any failure of a model call as the answer stores it. */
export function failureOf(error: unknown): AnswerFailure {
  if (error instanceof AnswerFailed) return { code: error.code, detail: error.message };
  return { code: 'internal', detail: `The answer could not be completed: ${errorText(error)}` };
}

/** The status an answer ends with: an abort says why it stopped; otherwise a failure is an error. */
export function statusOf(signal: AbortSignal, failure: AnswerFailure | null): AnswerStatus {
  const reason = signal.aborted ? (signal.reason as AbortReason) : null;
  if (reason === 'cancel') return 'cancelled';
  if (reason === 'shutdown') return 'interrupted';
  return failure ? 'error' : 'complete';
}

/**
 * Writes one answer from `events`: deltas and usage are handled here, every other event goes to
 * `onEvent`. Never throws for a failed model call (that is the answer's `error` end); only a
 * failed save propagates. Resolves with the end as stored.
 */
export async function writeAnswer<E extends { type: string }>(
  options: AnswerOptions,
  events: AsyncIterable<E | TextEvent>,
  signal: AbortSignal,
  callbacks: AnswerCallbacks<E>,
): Promise<AnswerEnd> {
  const { store } = options;
  let content = options.prefix ?? '';
  // The stored text is always `content` up to here: a save appends the rest.
  let saved = content.length;
  const maxBytes = options.maxBytes ?? DEFAULT_ANSWER_BYTES;
  let bytes = Buffer.byteLength(content, 'utf8');
  let usage: TokenUsage | null = null;
  let failure: AnswerFailure | null = null;
  const save = () => {
    if (content.length === saved) return;
    store.appendText(content.slice(saved));
    saved = content.length;
  };
  const stop = (options.timer ?? realFlushTimer).every(options.intervalMs ?? FLUSH_INTERVAL_MS, save);
  const pause = options.pause ?? nextTurn;
  let sinceTurn = 0;
  try {
    for await (const event of events) {
      if (isText(event)) {
        if (event.type === 'delta') {
          const size = Buffer.byteLength(event.text, 'utf8');
          if (bytes + size > maxBytes) {
            // Leaving the loop ends the provider's stream (and its request) through `return()`.
            const kept = cutUtf8(event.text, maxBytes - bytes);
            content += kept;
            if (kept) callbacks.onDelta(kept);
            failure = {
              code: 'answer_too_long',
              detail: `The answer reached its ceiling of ${maxBytes} bytes ([chat] max_answer_tokens) and was stopped; the text up to it is kept.`,
            };
            break;
          }
          bytes += size;
          content += event.text;
          callbacks.onDelta(event.text);
          sinceTurn += size;
          if (sinceTurn >= TURN_TEXT_BYTES) {
            sinceTurn = 0;
            await pause();
          }
        } else {
          usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
        }
      } else {
        callbacks.onEvent?.(event);
      }
    }
  } catch (error) {
    failure = failureOf(error);
  } finally {
    stop();
  }
  const status = statusOf(signal, failure);
  const end: AnswerEnd = {
    content,
    status,
    failure: status === 'interrupted' ? INTERRUPTED : status === 'error' ? failure : null,
    usage: usage ?? { input_tokens: estimateTokens(options.prompt), output_tokens: estimateTokens(content) },
  };
  options.transaction(() => {
    store.saveEnd(end);
    store.recordUsage(end.usage);
  });
  return end;
}

function isText(event: { type: string }): event is TextEvent {
  return event.type === 'delta' || event.type === 'usage';
}
