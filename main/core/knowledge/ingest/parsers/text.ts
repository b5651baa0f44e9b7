/** Plain text: paragraphs are separated by blank lines; line breaks inside a paragraph are kept. */
import { DocumentBuilder } from '../builder.js';
import { decodeTextOrThrow } from '../text.js';
import type { ParsedDocument } from '../types.js';

export function parseText(bytes: Buffer): ParsedDocument {
  const { text, encoding } = decodeTextOrThrow(bytes, 'Text');
  const builder = new DocumentBuilder();
  addParagraphs(builder, text);
  return builder.build({ format: 'text', encoding });
}

/** Adds one paragraph block per run of non-blank lines (form feeds count as blank lines). */
export function addParagraphs(builder: DocumentBuilder, text: string): void {
  const separator = /\n[ \t\f\v\u00a0]*\n|\f/g;
  let from = 0;
  for (let match = separator.exec(text); match; match = separator.exec(text)) {
    builder.add('paragraph', text.slice(from, match.index));
    from = match.index + match[0].length;
  }
  builder.add('paragraph', text.slice(from));
}
