/**
 * A cited passage in its place, for a reader: from the parsed document (the same parse that made
 * the chunks, so the chunks' offsets point into its text), the PDF page(s) the passage is on, the
 * table rows around it under their header, the section it belongs to, or the text around it.
 * Pure; bounded output whatever the file (a 500-page section, a row of 90 MB).
 */
import type { z } from 'zod';
import type { PassageSource } from '../../../../shared/operations/passage-source.js';
import { documentText } from '../ingest/builder.js';
import { pageSpan } from '../ingest/page-span.js';
import type { Block, ParsedDocument } from '../ingest/types.js';

type View = Omit<z.input<typeof PassageSource>, 'artifact_id' | 'artifact_key' | 'dataset_id'>;
type Segment = View['segments'][number];

/** Longest text shown; a longer page or section is cut around the passage. */
export const MAX_VIEW_CHARS = 20_000;
/** Rows shown above and below the passage's rows. */
export const ROWS_AROUND = 3;
/** Most rows shown (a passage of more rows shows its first ones). */
export const MAX_VIEW_ROWS = 60;
/** Longest cell shown. */
const MAX_CELL_CHARS = 500;
/** Text shown on each side of a passage that has no page or section. */
const TEXT_AROUND = 1_500;

const overlapping = (blocks: Block[], start: number, end: number): Block[] =>
  blocks.filter((b) => b.start < Math.max(end, start + 1) && b.end > start);

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `text[from, to)` split into runs, the part inside the passage `[start, end)` marked. */
function segments(text: string, from: number, to: number, start: number, end: number): Segment[] {
  const a = Math.min(Math.max(start, from), to);
  const b = Math.min(Math.max(end, a), to);
  const runs: Segment[] = [
    { text: text.slice(from, a), highlight: false },
    { text: text.slice(a, b), highlight: true },
    { text: text.slice(b, to), highlight: false },
  ];
  return runs.filter((r) => r.text !== '');
}

/** `[from, to)` narrowed to at most MAX_VIEW_CHARS, keeping the passage (its start, when it alone is longer) in view. */
function bounded(from: number, to: number, start: number, end: number): { from: number; to: number; truncated: boolean } {
  if (to - from <= MAX_VIEW_CHARS) return { from, to, truncated: false };
  const margin = Math.max(0, Math.floor((MAX_VIEW_CHARS - (end - start)) / 2));
  const lo = Math.max(from, Math.min(start - margin, to - MAX_VIEW_CHARS));
  return { from: lo, to: Math.min(to, lo + MAX_VIEW_CHARS), truncated: true };
}

function rowsView(doc: ParsedDocument, passage: Block[]): View | null {
  const table = doc.table;
  const numbers = passage.map((b) => b.row).filter((r): r is number => r !== undefined);
  if (!table || numbers.length === 0) return null;
  const first = Math.min(...numbers);
  const last = Math.max(...numbers);
  const lo = Math.max(1, first - ROWS_AROUND);
  const hi = Math.min(table.rows.length, last + ROWS_AROUND, lo + MAX_VIEW_ROWS - 1);
  const rows = [];
  for (let n = lo; n <= hi; n++) {
    rows.push({ number: n, cells: (table.rows[n - 1] ?? []).map((c) => clip(c, MAX_CELL_CHARS)), highlight: n >= first && n <= last });
  }
  return {
    kind: 'rows',
    location: { row_start: first, row_end: last },
    total_rows: table.rows.length,
    segments: [],
    table: { columns: table.columns.map((c) => clip(c, MAX_CELL_CHARS)), rows },
    truncated: hi < Math.min(table.rows.length, last + ROWS_AROUND),
  };
}

/**
 * The pages of the cited passage (`whole`), as its citation names them (one rule, pageSpan), the
 * part read marked; a long stretch is cut around the mark (`bounded`).
 */
function pagesView(doc: ParsedDocument, text: string, whole: Block[], start: number, end: number): View | null {
  const cited = pageSpan(whole.map((b) => b.page));
  if (!cited) return null;
  const last = cited.page_end ?? cited.page;
  const onPages = doc.blocks.filter((b) => b.page !== undefined && b.page >= cited.page && b.page <= last);
  const from = onPages[0]?.start ?? start;
  const to = onPages.at(-1)?.end ?? end;
  const span = bounded(from, to, start, end);
  const total = doc.metadata.pages;
  return {
    kind: 'pages',
    location: cited,
    ...(typeof total === 'number' ? { total_pages: total } : {}),
    segments: segments(text, span.from, span.to, start, end),
    table: null,
    truncated: span.truncated,
  };
}

const samePrefix = (path: string[], prefix: string[]) => prefix.every((p, i) => path[i] === p);

/** The blocks under the passage's innermost heading, that heading first (the section a reader would open). */
function sectionView(doc: ParsedDocument, text: string, passage: Block[], start: number, end: number): View | null {
  const body = passage.find((b) => b.kind !== 'heading') ?? passage[0];
  const path = body?.section ?? [];
  if (!body || path.length === 0) return null;
  const at = doc.blocks.indexOf(body);
  // Its heading: the nearest heading before it whose own path plus its text is the passage's path.
  let head = at;
  for (let i = at - 1; i >= 0; i--) {
    const b = doc.blocks[i] as Block;
    if (b.kind === 'heading' && (b.section?.length ?? 0) === path.length - 1 && samePrefix(path, b.section ?? [])) {
      head = i;
      break;
    }
  }
  // Its end: the last block still under that path (subsections included).
  let tail = at;
  for (let i = at + 1; i < doc.blocks.length; i++) {
    const b = doc.blocks[i] as Block;
    const under = b.kind === 'heading' ? (b.section?.length ?? 0) >= path.length && samePrefix(b.section ?? [], path) : samePrefix(b.section ?? [], path);
    if (!under) break;
    tail = i;
  }
  const lastPassage = passage.at(-1) as Block;
  const from = Math.min((doc.blocks[head] as Block).start, body.start);
  const to = Math.max((doc.blocks[tail] as Block).end, lastPassage.end);
  const span = bounded(from, to, start, end);
  return {
    kind: 'section',
    location: { section: path.join(' > ') },
    segments: segments(text, span.from, span.to, start, end),
    table: null,
    truncated: span.truncated,
  };
}

/** Text around the passage, widened to whole blocks (paragraphs), for files without pages or sections. */
function textView(doc: ParsedDocument, text: string, start: number, end: number): View {
  const near = doc.blocks.filter((b) => b.end > start - TEXT_AROUND && b.start < end + TEXT_AROUND);
  const from = Math.min(near[0]?.start ?? start, start);
  const to = Math.max(near.at(-1)?.end ?? end, end);
  const span = bounded(from, Math.min(to, text.length), start, end);
  return { kind: 'text', location: {}, segments: segments(text, span.from, span.to, start, end), table: null, truncated: span.truncated || from > 0 || to < text.length };
}

/**
 * Where `focus` (a search snippet: a slice of the chunk's text, "…" at a cut end, maybe the chunk's
 * section prefix first) sits in `text[start, end)`: the part of a long passage the reader was shown.
 */
export function focusRange(text: string, start: number, end: number, focus: string | undefined): { start: number; end: number } {
  const whole = { start, end };
  if (!focus) return whole;
  const bare = focus.replace(/^…/, '').replace(/…$/, '').trim();
  const window = text.slice(start, end);
  // A snippet that begins at the chunk's start carries its section prefix ("Handbook > Allowances: …"), not in the text.
  const afterPrefix = bare.slice(bare.indexOf(': ') + 2);
  for (const candidate of [bare, afterPrefix]) {
    if (candidate.length < 3) continue;
    const at = window.indexOf(candidate);
    if (at >= 0) return wholeSentences(text, start, end, start + at, start + at + candidate.length);
  }
  return whole;
}

/** Farthest a marked range is widened on each side to reach a sentence's start or end. */
const SENTENCE_REACH = 400;
// Made at the first use (ICU's sentence rules cost some milliseconds to build). ICU ends sentences at 。！？ too.
let sentences: Intl.Segmenter | undefined;

/**
 * `[from, to)` widened to the whole sentences it touches, within the passage `[start, end)`. A
 * snippet is a window of words cut around the question's terms, and the part cut off is often the
 * fact asked for ("…an equipment allowance" without "of EUR 1,200 per year."): a mark must show
 * the sentence the answer quotes. A line break inside a paragraph (a PDF's text layer breaks every
 * line) does not end a sentence; a blank line does. A "sentence" reaching farther than
 * SENTENCE_REACH (a list without full stops) is not followed.
 */
function wholeSentences(text: string, start: number, end: number, from: number, to: number): { start: number; end: number } {
  const lo = Math.max(start, from - SENTENCE_REACH);
  const hi = Math.min(end, to + SENTENCE_REACH);
  // Same length as the text, so segment offsets are text offsets.
  const flat = text.slice(lo, hi).replace(/(?<!\n)\n(?!\n)/g, ' ');
  let a = from;
  let b = to;
  for (const { index, segment } of (sentences ??= new Intl.Segmenter('en', { granularity: 'sentence' })).segment(flat)) {
    const s = lo + index;
    const e = s + segment.trimEnd().length;
    if (e <= from || s >= to) continue;
    // The first sentence reaching into the range, unless it starts at the window's clipped edge; likewise its last.
    if (s < a && (s > lo || lo === start)) a = s;
    if (e > b && (s + segment.length < hi || hi === end)) b = e;
  }
  return { start: a, end: b };
}

/**
 * The view of `[start, end)` (a chunk's location offsets) in `doc`, or null when no part of the
 * document is there (offsets of another version of the file). Text is marked where `focus` (the
 * snippet a reader saw) is found in it; table rows are marked whole, as the citation names them.
 */
export function sourceView(doc: ParsedDocument, start: number, end: number, focus?: string): View | null {
  const text = documentText(doc);
  if (start >= text.length) return null;
  const range = focusRange(text, start, Math.min(end, text.length), focus);
  const passage = overlapping(doc.blocks, range.start, range.end);
  if (passage.length === 0) return null;
  const whole = overlapping(doc.blocks, start, end);
  // Rows are cited whole: the rows marked are the passage's rows, the range its citation names
  // ("rows 12–18"), not the few the snippet happened to show.
  return (
    rowsView(doc, whole) ??
    pagesView(doc, text, whole, range.start, range.end) ??
    sectionView(doc, text, passage, range.start, range.end) ??
    textView(doc, text, range.start, range.end)
  );
}
