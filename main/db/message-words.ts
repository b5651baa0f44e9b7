import { indexedText } from '../../shared/words.js';
import type { Db } from './connection.js';

/**
 * The SQL function the messages' keyword index is fed through (migration 240): a message's text
 * as the index should read it, with a space between the words of scripts written without spaces
 * (shared/words.ts), so `设备补贴` inside a sentence is found. ICU lives in JS, so the triggers
 * call back into it; every connection that writes messages registers it (openDatabase does).
 */
export const MESSAGE_WORDS_FUNCTION = 'parley_message_words';

export function messageWords(text: string): string {
  return indexedText(text) ?? text;
}

export function registerMessageWords(db: Db): void {
  db.function(MESSAGE_WORDS_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? messageWords(text) : ''));
}
