/**
 * PDF (`pdfjs-dist`, legacy build for Node): the text of each page, split into paragraphs where
 * the gap between lines is larger than the page's usual line spacing. Every block carries its page.
 * No OCR: a scanned PDF has no text and ends as `empty`.
 */
import { DocumentBuilder } from '../builder.js';
import { PARSE_LIMITS } from '../limits.js';
import { IngestError, type ParsedDocument } from '../types.js';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | null = null;

/**
 * Loads pdf.js once per thread. Its legacy build (the one for Node 20) carries core-js polyfills
 * that replace a few natives for the whole thread with slow spec-fixing versions —
 * `Array.prototype.push` and `JSON.parse` among them, which made every parser in the worker, not
 * only PDF, several times slower. Those natives are put back after loading (what the polyfills fix
 * are edge cases pdf.js does not use). Its worker half is imported first, so pdf.js runs it in
 * this thread without looking for a file by URL.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const saved: [object, PropertyKey, PropertyDescriptor | undefined][] = [
      [Array.prototype, 'push', Object.getOwnPropertyDescriptor(Array.prototype, 'push')],
      [JSON, 'parse', Object.getOwnPropertyDescriptor(JSON, 'parse')],
      [Function.prototype, 'toString', Object.getOwnPropertyDescriptor(Function.prototype, 'toString')],
    ];
    try {
      await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      for (const [target, key, descriptor] of saved) if (descriptor) Object.defineProperty(target, key, descriptor);
    }
  })();
  return loading;
}

interface Line {
  text: string;
  y: number;
  height: number;
}

interface TextItemLike {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

function isTextItem(item: object): item is TextItemLike {
  return 'str' in item && 'transform' in item;
}

function pageLines(items: object[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    if (!isTextItem(item)) continue;
    const y = item.transform[5] ?? 0;
    const height = Math.abs(item.transform[3] ?? 0) || item.height || 0;
    // A jump in the baseline without an end-of-line mark still starts a new line.
    if (current && item.str !== '' && Math.abs(current.y - y) > Math.max(2, (current.height || height) * 0.6)) {
      lines.push(current);
      current = null;
    }
    if (item.str !== '') {
      if (!current) current = { text: '', y, height };
      current.text += item.str;
      current.height = Math.max(current.height, height);
    }
    if (item.hasEOL && current) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines.filter((l) => l.text.trim() !== '');
}

/** The usual spacing of lines inside a paragraph: the lower quartile of the gaps (paragraph gaps are the large ones). */
function usualGap(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 4)] ?? 0;
}

/** Groups lines into paragraphs: a gap clearly above the usual line spacing ends one. */
function paragraphs(lines: Line[]): string[] {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = Math.abs((lines[i - 1]?.y ?? 0) - (lines[i]?.y ?? 0));
    if (gap > 0) gaps.push(gap);
  }
  const usual = usualGap(gaps);
  const out: string[] = [];
  let current: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const prev = lines[i - 1];
    if (prev && current.length > 0) {
      const gap = Math.abs(prev.y - line.y);
      const bigGap = usual > 0 && gap > usual * 1.4 && gap > line.height * 1.2;
      // Text that goes back up the page is a new column or a new region.
      const wentUp = line.y > prev.y + line.height;
      if (bigGap || wentUp) {
        out.push(current.join('\n'));
        current = [];
      }
    }
    current.push(line.text.replace(/\s+$/, ''));
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

function describe(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return 'PDF: the file is password-protected.';
  const reason = error instanceof Error ? error.message : String(error);
  return `PDF: the file could not be read (${reason.replace(/\.$/, '')}).`;
}

export async function parsePdf(bytes: Buffer): Promise<ParsedDocument> {
  // pdf.js takes ownership of (and detaches) the array it is given: hand it a copy.
  const data = new Uint8Array(bytes);
  const { getDocument, VerbosityLevel } = await loadPdfjs();
  const task = getDocument({ data, verbosity: VerbosityLevel.ERRORS, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false });
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw new IngestError('parse_error', describe(error));
    });
    // The declared page count, before any page is read: a file claiming a million pages fails now.
    if (pdf.numPages > PARSE_LIMITS.pdfPages) {
      throw new IngestError('too_large', `PDF: the file declares ${pdf.numPages} pages; at most ${PARSE_LIMITS.pdfPages} are read.`);
    }
    const builder = new DocumentBuilder();
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      for (const paragraph of paragraphs(pageLines(content.items))) builder.add('paragraph', paragraph, { page: pageNumber });
      page.cleanup();
    }
    const metadata: ParsedDocument['metadata'] = { format: 'pdf', pages: pdf.numPages };
    try {
      const info = (await pdf.getMetadata()).info as Record<string, unknown> | undefined;
      const title = info?.Title;
      if (typeof title === 'string' && title.trim()) metadata.title = title.trim();
    } catch {
      // No metadata is fine.
    }
    if (builder.isEmpty) throw new IngestError('empty', `PDF: none of the ${pdf.numPages} page(s) has extractable text (scanned pages need OCR, which is not supported).`);
    return builder.build(metadata);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw new IngestError('parse_error', describe(error));
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
