/**
 * Every parser emits blocks through one builder, so offsets, sections and the extracted text agree
 * by construction: the text is the blocks' texts joined by a blank line (a single newline between
 * consecutive table rows), and `text.slice(block.start, block.end) === block.text`.
 */
import { PARSE_LIMITS } from './limits.js';
import { IngestError, type Block, type ParsedDocument, type TableData } from './types.js';

export type BlockKind = Block['kind'];

export interface BlockExtras {
  level?: number;
  page?: number;
  row?: number;
}

const EMPTY_SECTION: string[] = [];

export class DocumentBuilder {
  readonly blocks: Block[] = [];
  private readonly parts: string[] = [];
  private length = 0;
  private readonly headings: { level: number; text: string }[] = [];
  /** Shared between the blocks of one section (rebuilt when the heading stack changes). */
  private section: string[] = EMPTY_SECTION;

  /** Adds a block; whitespace around `text` is trimmed and an empty block is skipped. */
  add(kind: BlockKind, rawText: string, extras: BlockExtras = {}): Block | null {
    const text = rawText.trim();
    if (text === '') return null;
    if (this.blocks.length >= PARSE_LIMITS.blocks) {
      throw new IngestError('too_large', `The document has more than ${PARSE_LIMITS.blocks} paragraphs, rows or other blocks; it was not indexed.`);
    }
    let section = this.section;
    if (kind === 'heading') {
      const level = Math.min(6, Math.max(1, extras.level ?? 1));
      while (this.headings.length > 0 && (this.headings[this.headings.length - 1]?.level ?? 0) >= level) this.headings.pop();
      section = this.headings.length === 0 ? EMPTY_SECTION : this.headings.map((h) => h.text);
      this.headings.push({ level, text: oneLine(text) });
      this.section = this.headings.map((h) => h.text);
      extras = { ...extras, level };
    }
    const previous = this.blocks[this.blocks.length - 1];
    const separator = !previous ? '' : previous.kind === 'row' && kind === 'row' ? '\n' : '\n\n';
    if (separator) {
      this.parts.push(separator);
      this.length += separator.length;
    }
    const block: Block = { kind, text, section, start: this.length, end: this.length + text.length };
    if (extras.level !== undefined) block.level = extras.level;
    if (extras.page !== undefined) block.page = extras.page;
    if (extras.row !== undefined) block.row = extras.row;
    this.parts.push(text);
    this.length += text.length;
    this.blocks.push(block);
    return block;
  }

  get isEmpty(): boolean {
    return this.blocks.length === 0;
  }

  build(metadata: ParsedDocument['metadata'], table?: TableData): ParsedDocument {
    const doc: ParsedDocument = { blocks: this.blocks, metadata, text: this.parts.join('') };
    if (table) doc.table = table;
    return doc;
  }
}

/** Collapses runs of whitespace to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The text a document's offsets point into: `doc.text`, or for a document built by hand without
 * it, the block texts laid out at their offsets (gaps filled with newlines).
 */
export function documentText(doc: ParsedDocument): string {
  if (doc.text !== undefined) return doc.text;
  const parts: string[] = [];
  let length = 0;
  for (const block of doc.blocks) {
    if (block.start > length) {
      parts.push('\n'.repeat(block.start - length));
      length = block.start;
    }
    parts.push(block.text);
    length += block.text.length;
  }
  return parts.join('');
}
