/**
 * Parsed blocks → chunks for retrieval, following the document's structure:
 *
 * - A section is the run of blocks under one heading. Small sections are packed together while they
 *   share their top-level heading and fit in `targetChars`; a top-level boundary is never crossed.
 * - Each chunk's text starts with its section path ("Install > Linux: …"), so a keyword search for
 *   a heading finds the text under it; headings deeper than that path stay in the text.
 * - A section longer than the target is cut at the best boundary in the second half of the window:
 *   a blank line, then (in lists, code, tables and JSON) a line break, then a sentence end, then a
 *   line break, then a space, then (Chinese, Japanese, Thai: no spaces) a word boundary
 *   (shared/words.ts). Consecutive pieces of one section overlap by up to `overlapChars`,
 *   starting at a sentence or word boundary. `。！？` end a sentence without a space after them.
 * - Table rows (CSV) are grouped whole, each chunk repeating the column header, with the range of
 *   data rows in its location.
 * - Every chunk's location gives offsets into the document's text: the chunk text is its prefix
 *   followed by exactly `text.slice(start, end)`. PDF chunks carry their first page (and last).
 *
 * - Every chunk has a hard maximum size whatever the format: a table row longer than the target
 *   (a 90 MB CSV cell) is split like a long section, and the section path and the column header
 *   repeated in each chunk are cut short when they are long (a million-column header).
 *
 * Pure and deterministic; linear in the size of the text.
 */
import { hasSpacelessScript, wordsOf } from '../../../../shared/words.js';
import { documentText, oneLine } from './builder.js';
import { pageSpan } from './page-span.js';
import type { Block, Chunk, ChunkLocation, ParsedDocument } from './types.js';

export interface ChunkOptions {
  /** Aimed-for chunk length in characters, section prefix included (default 1200). */
  targetChars?: number;
  /** Overlap between consecutive chunks of one section (default 150). */
  overlapChars?: number;
}

interface Unit {
  rows: boolean;
  /** Section path of the unit's content. */
  path: string[];
  /** First block index, leading headings included. */
  lead: number;
  /** First content block index. */
  first: number;
  /** One past the last block index. */
  end: number;
}

// Chinese and Japanese full stops (。！？) end a sentence with no space after them, closing quotes
// and brackets (」』）”) kept with it.
const CJK_END = "[\u3002\uff01\uff1f][\u300d\u300f\uff09\u3011\u201d\u2019\"')\\]]*";
const SENTENCE_END = new RegExp(`[.!?\u2026\u3002]["'\u201d\u2019)\\]]*(?=\\s)|${CJK_END}`, 'g');
const SENTENCE_GAP = new RegExp(`[.!?\u2026\u3002]["'\u201d\u2019)\\]]*\\s+|${CJK_END}`);
/** Characters read on each side of a window when finding word boundaries in it, so ICU sees the words cut by its edges whole. */
const WORD_CONTEXT = 32;
const LINE_KINDS = new Set<Block['kind']>(['list', 'code', 'table']);
/** Longest section path printed before a chunk's text. */
const MAX_PREFIX_CHARS = 200;
/** Longest column header repeated in the chunks of a table. */
const MAX_HEADER_CHARS = 400;

/**
 * Where words start in `text` between `from` and `to` (both included), for text written without
 * spaces: read with some context each side, so a word cut by the window's edge is not taken for
 * two.
 */
function wordStarts(text: string, from: number, to: number): number[] {
  const at = Math.max(0, from - WORD_CONTEXT);
  const starts: number[] = [];
  for (const word of wordsOf(text.slice(at, Math.min(text.length, to + WORD_CONTEXT)))) {
    const start = at + word.index;
    if (start >= from && start <= to) starts.push(start);
  }
  return starts;
}

function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

function samePath(a: string[], b: string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function commonPrefix(a: string[], b: string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n === a.length ? a : a.slice(0, n);
}

function buildUnits(blocks: Block[]): Unit[] {
  const units: Unit[] = [];
  let lead = 0;
  let unit: Unit | null = null;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (block.kind === 'heading') {
      if (unit) {
        units.push(unit);
        unit = null;
        lead = i;
      }
      continue;
    }
    const rows = block.kind === 'row';
    const path = block.section ?? [];
    if (unit && (unit.rows !== rows || !samePath(unit.path, path))) {
      units.push(unit);
      unit = null;
      lead = i;
    }
    if (unit) unit.end = i + 1;
    else unit = { rows, path, lead, first: i, end: i + 1 };
  }
  if (unit) units.push(unit);
  // Headings with nothing under them at the very end: their own unit.
  const last = units[units.length - 1];
  const tail = last ? last.end : 0;
  if (tail < blocks.length) {
    const first = blocks[tail] as Block;
    units.push({ rows: false, path: first.section ?? [], lead: tail, first: tail, end: blocks.length });
  }
  return units;
}

export function chunkDocument(doc: ParsedDocument, options: ChunkOptions = {}): Chunk[] {
  const target = Math.max(100, Math.floor(options.targetChars ?? 1200));
  const overlap = Math.max(0, Math.floor(options.overlapChars ?? 150));
  const text = documentText(doc);
  const blocks = doc.blocks;
  const paged = blocks.some((b) => b.page !== undefined);
  const lineFirstDoc = doc.metadata.format === 'json';
  const header = doc.table && doc.table.columns.length > 0 ? `${shortened(`Columns: ${doc.table.columns.join(', ')}`, MAX_HEADER_CHARS)}\n` : '';
  const chunks: Chunk[] = [];

  const prefixOf = (path: string[]) => (path.length > 0 ? `${shortened(path.join(' > '), MAX_PREFIX_CHARS)}: ` : '');
  const isSpace = (i: number) => {
    const c = text.charCodeAt(i);
    return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0;
  };

  /** Index of the first block whose end is after `offset`. */
  const blockAt = (offset: number): number => {
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((blocks[mid] as Block).end <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const emit = (start: number, end: number, path: string[], prefix: string, extra: Partial<ChunkLocation> = {}) => {
    const location: ChunkLocation = { start, end, ...extra };
    if (path.length > 0) location.section = path.join(' > ');
    if (paged) {
      const pages = function* () {
        for (let k = blockAt(start); k < blocks.length && (blocks[k] as Block).start < end; k++) yield (blocks[k] as Block).page;
      };
      Object.assign(location, pageSpan(pages()));
    }
    chunks.push({ ord: chunks.length, text: prefix + text.slice(start, end), location });
  };

  /** Where the text of a unit starts when `prefix` is the path printed before it. */
  const bodyStart = (unit: Unit, prefix: string[]): number => {
    for (let k = unit.lead; k < unit.first; k++) {
      const h = blocks[k] as Block;
      const depth = h.section?.length ?? 0;
      // A heading the prefix already names is not repeated in the text.
      if (!(depth < prefix.length && prefix[depth] === oneLine(h.text))) return h.start;
    }
    return (blocks[unit.first] as Block).start;
  };
  const unitEnd = (unit: Unit) => (blocks[unit.end - 1] as Block).end;

  /** End of a piece starting at `pos` that must end by `limit`, at the best boundary found. */
  const findCut = (pos: number, limit: number, maxBody: number): number => {
    // Only the second half of the window is searched: every search is bounded, the whole pass linear.
    const minCut = pos + Math.floor(maxBody / 2);
    const window = text.slice(minCut, limit);
    const paragraph = window.lastIndexOf('\n\n');
    if (paragraph >= 0) return minCut + paragraph;
    const kind = (blocks[Math.min(blocks.length - 1, blockAt(limit))] as Block | undefined)?.kind;
    const lineFirst = lineFirstDoc || (kind !== undefined && LINE_KINDS.has(kind));
    const line = window.lastIndexOf('\n');
    if (lineFirst && line >= 0) return minCut + line;
    let sentence = -1;
    SENTENCE_END.lastIndex = 0;
    for (let m = SENTENCE_END.exec(window); m; m = SENTENCE_END.exec(window)) sentence = m.index + m[0].length;
    if (sentence > 0) return minCut + sentence;
    if (line >= 0) return minCut + line;
    const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'));
    if (space > 0) return minCut + space;
    // Chinese, Japanese, Thai without a space or a full stop: between two words.
    if (hasSpacelessScript(window)) {
      const word = wordStarts(text, minCut + 1, limit).at(-1);
      if (word !== undefined) return word;
    }
    // One long token: cut anywhere, but not inside a surrogate pair.
    const c = text.charCodeAt(limit - 1);
    return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
  };

  /** Start of the next piece: a sentence or word start within the last `ov` characters before `cut`. */
  const overlapStart = (pos: number, cut: number, ov: number): number => {
    if (ov <= 0) return cut;
    const from = Math.max(pos + 1, cut - ov);
    const window = text.slice(from, cut);
    const sentence = SENTENCE_GAP.exec(window);
    if (sentence && sentence.index + sentence[0].length < window.length) return from + sentence.index + sentence[0].length;
    const word = /\s+/.exec(window);
    if (word && word.index + word[0].length < window.length) return from + word.index + word[0].length;
    if (hasSpacelessScript(window)) {
      const start = wordStarts(text, from, cut - 1)[0];
      if (start !== undefined) return start;
    }
    return cut;
  };

  const emitSplit = (start: number, end: number, path: string[], prefix = prefixOf(path), extra: Partial<ChunkLocation> = {}) => {
    const maxBody = Math.max(50, target - prefix.length);
    const ov = Math.min(overlap, Math.floor(maxBody / 4));
    let pos = start;
    while (pos < end) {
      while (pos < end && isSpace(pos)) pos++;
      if (pos >= end) break;
      if (end - pos <= maxBody) {
        emit(pos, end, path, prefix, extra);
        break;
      }
      let cut = findCut(pos, pos + maxBody, maxBody);
      const next = overlapStart(pos, cut, ov);
      while (cut > pos + 1 && isSpace(cut - 1)) cut--;
      emit(pos, cut, path, prefix, extra);
      pos = next;
    }
  };

  const emitRows = (unit: Unit) => {
    const prefix = prefixOf(unit.path) + header;
    const rowOf = (k: number) => (blocks[k] as Block).row ?? k - unit.first + 1;
    let first = unit.first;
    const flush = (last: number) => {
      const a = blocks[first] as Block;
      const b = blocks[last] as Block;
      // One row longer than a chunk (a giant cell) is split like a long section, each piece naming its row.
      if (first === last && prefix.length + b.end - a.start > target) emitSplit(a.start, b.end, unit.path, prefix, { row_start: rowOf(first), row_end: rowOf(first) });
      else emit(a.start, b.end, unit.path, prefix, { row_start: rowOf(first), row_end: rowOf(last) });
    };
    for (let k = unit.first + 1; k < unit.end; k++) {
      const size = prefix.length + (blocks[k] as Block).end - (blocks[first] as Block).start;
      if (size > target) {
        flush(k - 1);
        first = k;
      }
    }
    flush(unit.end - 1);
  };

  const units = buildUnits(blocks);
  for (let i = 0; i < units.length; ) {
    const unit = units[i] as Unit;
    if (unit.rows) {
      emitRows(unit);
      i++;
      continue;
    }
    let path = unit.path;
    let start = bodyStart(unit, path);
    if (prefixOf(path).length + unitEnd(unit) - start > target) {
      emitSplit(start, unitEnd(unit), path);
      i++;
      continue;
    }
    // Pack the following small sections of the same top-level section while they fit.
    let j = i + 1;
    for (; j < units.length; j++) {
      const next = units[j] as Unit;
      if (next.rows || next.path[0] !== unit.path[0]) break;
      const shared = commonPrefix(path, next.path);
      const sharedStart = bodyStart(unit, shared);
      if (prefixOf(shared).length + unitEnd(next) - sharedStart > target) break;
      path = shared;
      start = sharedStart;
    }
    emitSplit(start, unitEnd(units[j - 1] as Unit), path);
    i = j;
  }
  return chunks;
}
