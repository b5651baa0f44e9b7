import { snippetOf } from '../../../search/index.js';
import { typedWords } from '../../../db/repositories/message-search.js';
import type { ThreadHit } from '../../../db/repositories/threads.js';
import type { ThreadMatch } from '../../../../shared/operations/threads.js';

/** Words around the match a thread list shows under a thread found by a message: two short lines. */
const SNIPPET_WORDS = 24;

/**
 * A message's text as it reads, for a one-line snippet: answers are Markdown, and `**`, code fences,
 * headings' `#`, links' URLs and HTML tags are noise there. Rough on purpose: only the marks go, every
 * word stays, so the words searched are still in the text.
 */
export function readableText(markdown: string): string {
  return markdown
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:`{3,}|~{3,})[^\n]*$/gm, ' ')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|`+|~~)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The message a search found a thread by, with its words around the typed ones, as dataset search
 * cuts its snippets (the renderer marks the words, as there). A word counts when it starts with a
 * typed one of three letters or more, as the index matched the last one as a prefix.
 */
export function threadMatch(hit: ThreadHit, q: string): ThreadMatch {
  const terms = typedWords(q).map((word) => ({ word, stems: [word] }));
  return { message_id: hit.message_id, snippet: snippetOf(readableText(hit.content), terms, SNIPPET_WORDS) };
}
