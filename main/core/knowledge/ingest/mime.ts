/**
 * What a file really is, from its content first and its name and declared type second.
 *
 * Binary formats are recognised by their magic bytes (hand-rolled signatures: three dozen cover
 * what we meet). `file-type` was measured against them (21.3.4, the last major for Node 20) and is not
 * used: it misses a PDF after a stray newline, which PDF readers open; it names a DOCX only once
 * `[Content_Types].xml` is inside the sample (the first 4 KB of our sample DOCX are a plain ZIP to
 * it, a DOCX to us by its `word/document.xml`); it calls text formats (iCalendar, vCard, WebVTT, XML)
 * binary, which would make declared text/plain a mismatch; it cannot tell a .doc from an .xls; and
 * it is asynchronous and ESM-only. On random bytes both guess equally rarely (about 1 in 1,500).
 * Text is decoded as in `text.ts`, then sniffed: JSON if it parses, HTML if it
 * looks like HTML, CSV/TSV if every line has the same number of delimiters, Markdown if it has
 * Markdown structure, else plain text.
 *
 * Policy: content wins. A declared type that names a different text flavour is *corrected* when
 * the content is a text flavour we can read anyway (declared text/plain, content JSON →
 * application/json). A declared type of a different *kind* (declared application/pdf, bytes are
 * PNG; declared text/csv, bytes are a ZIP) is a *mismatch*. Content we cannot identify (unknown
 * binary) never contradicts a declaration: the parser gets to say why it cannot read it.
 */
import { createRequire } from 'node:module';
import type * as MimeTypes from 'mime-types';
import { decodeText } from './text.js';

let mimeTypes: typeof MimeTypes | undefined;

/**
 * The type a file name suggests. `mime-types` is loaded at the first lookup, not when this module
 * is: its database (mime-db) cost ~10 ms of CPU at every start of served mode (test/bench/startup.ts).
 */
function mimeDb(): typeof MimeTypes {
  return (mimeTypes ??= createRequire(import.meta.url)('mime-types') as typeof MimeTypes);
}

function lookupByName(filename: string): string | false {
  return mimeDb().lookup(filename);
}

/** The file name extensions of a type (`.md` for text/markdown), for a file picker's `accept`. */
export function extensionsOf(type: string): string[] {
  return (mimeDb().extensions[type] ?? []).map((ext) => `.${ext}`);
}

export const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  octet: 'application/octet-stream',
  zip: 'application/zip',
} as const;

/** Types `parseDocument` has a dedicated parser for (other text types are read as plain text). */
export const PARSEABLE_TYPES: readonly string[] = [MIME.pdf, MIME.docx, MIME.html, MIME.markdown, MIME.text, MIME.csv, MIME.tsv, MIME.json];

export interface DetectMimeInput {
  /** The first 64 KB of the file, or all of it. */
  bytes: Buffer;
  filename: string;
  /** The type the client declared, if any (parameters such as `; charset=` are ignored). */
  declared?: string | null;
}

export interface DetectedMime {
  mime: string;
  /** The declared type and the content are different kinds: the file must not be processed as either. */
  mismatch: boolean;
  /** The declared (or name-given) type was replaced by the one read from the content. */
  corrected: boolean;
  /** Why, in words, when `mismatch` or `corrected`. */
  detail?: string;
}

const SAMPLE_BYTES = 64 * 1024;

/** Lower-cased type without parameters; null for nothing or a generic "some bytes" type. */
export function normalizeMime(value: string | null | undefined): string | null {
  if (!value) return null;
  const base = value.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(base)) return null;
  if (base === 'application/octet-stream' || base === 'binary/octet-stream' || base === 'application/unknown' || base === 'application/x-unknown') return null;
  return base;
}

/** Types whose content is text (so any text content is at worst a correction, not a mismatch). */
export function isTextualMime(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    /[/+](json|xml)$/.test(mime) ||
    ['application/javascript', 'application/x-javascript', 'application/ecmascript', 'application/x-ndjson', 'application/jsonl', 'application/yaml', 'application/x-yaml', 'application/toml', 'application/x-sh', 'application/sql', 'application/x-tex', 'application/x-latex'].includes(mime)
  );
}

const is = (mime: string) => ({
  json: mime === MIME.json || mime.endsWith('+json'),
  html: mime === MIME.html || mime === 'application/xhtml+xml',
  markdown: mime === MIME.markdown || mime === 'text/x-markdown',
  table: mime === MIME.csv || mime === MIME.tsv,
});

// ---------------------------------------------------------------------------------------------
// Magic bytes

function startsWith(bytes: Buffer, signature: number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false;
  return true;
}

function ascii(bytes: Buffer, offset: number, length: number): string {
  return bytes.toString('latin1', offset, Math.min(bytes.length, offset + length));
}

/**
 * Entry names visible in a ZIP prefix (local headers and, when present, the central directory).
 * Not yauzl, which reads the central directory at the file's end: the sniff sees the first 64 KB.
 */
export function zipEntryNames(bytes: Buffer): Set<string> {
  const names = new Set<string>();
  const scan = (signature: Buffer, lengthAt: number, nameAt: number) => {
    for (let at = bytes.indexOf(signature); at !== -1; at = bytes.indexOf(signature, at + 4)) {
      if (at + nameAt > bytes.length) break;
      const length = bytes.readUInt16LE(at + lengthAt);
      if (length === 0 || at + nameAt + length > bytes.length) continue;
      names.add(bytes.toString('utf8', at + nameAt, at + nameAt + length));
    }
  };
  scan(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 26, 30);
  scan(Buffer.from([0x50, 0x4b, 0x01, 0x02]), 28, 46);
  return names;
}

function zipFlavour(bytes: Buffer): string {
  const names = zipEntryNames(bytes);
  if (names.has('word/document.xml')) return MIME.docx;
  if (names.has('xl/workbook.xml')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (names.has('ppt/presentation.xml')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  if (names.has('mimetype')) {
    // ODF and EPUB store their type uncompressed as the first entry.
    const head = ascii(bytes, 30, 120);
    const match = /application\/(vnd\.oasis\.opendocument\.[a-z.-]+|epub\+zip)/.exec(head);
    if (match) return match[0];
  }
  return MIME.zip;
}

/** Office ZIP formats: a generic ZIP may be one of them whose telling entry lies past the sample. */
const ZIP_BASED = new Set<string>([MIME.zip, 'application/x-zip-compressed', MIME.docx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/epub+zip', 'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.presentation']);

/** A binary type recognised from its signature, or null. Text-like signatures (RTF, PostScript) count: we do not read them. */
export function sniffMagic(bytes: Buffer, filename = ''): string | null {
  const head = ascii(bytes, 0, 1024);
  // Readers accept a few stray bytes (a BOM, whitespace) before the header.
  const pdfAt = head.indexOf('%PDF-');
  if (pdfAt !== -1 && pdfAt <= 4) return MIME.pdf;
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) || startsWith(bytes, [0x50, 0x4b, 0x07, 0x08])) return zipFlavour(bytes);
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && bytes.length >= 12) {
    const form = ascii(bytes, 8, 4);
    if (form === 'WEBP') return 'image/webp';
    if (form === 'WAVE') return 'audio/wav';
    if (form === 'AVI ') return 'video/x-msvideo';
  }
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 26 && bytes.readUInt32LE(6) === 0 && [12, 40, 52, 56, 64, 108, 124].includes(bytes.readUInt32LE(14))) return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes.readUInt16LE(4) > 0) return 'image/x-icon';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (['heic', 'heix', 'hevc', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
    if (brand === 'avif') return 'image/avif';
    if (brand === 'qt  ') return 'video/quicktime';
    if (brand.startsWith('M4A')) return 'audio/mp4';
    return 'video/mp4';
  }
  if (head.startsWith('ID3') || (startsWith(bytes, [0xff]) && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && decodeText(bytes.subarray(0, 512), true) === null)) return 'audio/mpeg';
  if (head.startsWith('OggS')) return 'audio/ogg';
  if (head.startsWith('fLaC')) return 'audio/flac';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'application/gzip';
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'application/x-7z-compressed';
  if (head.startsWith('Rar!\x1a\x07')) return 'application/vnd.rar';
  if (startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'application/x-xz';
  if (startsWith(bytes, [0x28, 0xb5, 0x2f, 0xfd])) return 'application/zstd';
  if (/^BZh[1-9]\x31\x41\x59\x26\x53\x59/.test(head)) return 'application/x-bzip2';
  if (bytes.length >= 262 && ascii(bytes, 257, 5) === 'ustar') return 'application/x-tar';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    // OLE2 compound file: legacy Office. Only the name tells which.
    const byName = lookupByName(filename);
    return byName === 'application/msword' || byName === 'application/vnd.ms-excel' || byName === 'application/vnd.ms-powerpoint' ? byName : 'application/x-cfb';
  }
  if (head.startsWith('SQLite format 3\0')) return 'application/vnd.sqlite3';
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'application/x-elf';
  if (startsWith(bytes, [0x00, 0x61, 0x73, 0x6d])) return 'application/wasm';
  if (head.startsWith('MZ') && bytes.length >= 64 && decodeText(bytes.subarray(0, 512), true) === null) return 'application/vnd.microsoft.portable-executable';
  if (startsWith(bytes, [0xcf, 0xfa, 0xed, 0xfe]) || startsWith(bytes, [0xfe, 0xed, 0xfa, 0xcf]) || startsWith(bytes, [0xca, 0xfe, 0xba, 0xbe])) return 'application/x-mach-binary';
  if (head.startsWith('{\\rtf')) return 'application/rtf';
  if (head.startsWith('%!PS')) return 'application/postscript';
  if (head.startsWith('wOFF')) return 'font/woff';
  if (head.startsWith('wOF2')) return 'font/woff2';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Text flavours

type Strength = 'strong' | 'medium' | 'weak';

interface TextSniff {
  mime: string;
  strength: Strength;
}

/** Splits a line into fields the CSV way (quotes protect delimiters); returns the field count. */
function countFields(line: string, delimiter: string): number {
  let fields = 1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) fields++;
  }
  return fields;
}

/** The delimiter every sampled line agrees on, or null: strict enough to tell a table from prose. */
export function sniffDelimiter(text: string, partial = false): string | null {
  let lines = text.split('\n', 60).map((l) => l.replace(/\r$/, ''));
  // The last line of a prefix may be cut short; a final empty line is just the trailing newline.
  if (partial || lines.length >= 60) lines = lines.slice(0, -1);
  lines = lines.filter((l) => l.trim() !== '');
  if (lines.length < 2) return null;
  let best: { delimiter: string; fields: number } | null = null;
  for (const delimiter of [',', '\t', ';', '|']) {
    const counts = lines.map((l) => countFields(l, delimiter));
    const fields = counts[0] ?? 1;
    if (fields < 2 || counts.some((c) => c !== fields)) continue;
    // Two lines of two fields is too little to tell CSV from prose with one comma per line.
    if (lines.length < 3 && fields < 3) continue;
    // Markdown tables are pipe-delimited too, with the pipes at both ends.
    if (delimiter === '|' && lines.every((l) => l.trim().startsWith('|'))) continue;
    // Header cells are short labels, not sentences.
    const header = (lines[0] ?? '').split(delimiter);
    if (header.some((h) => h.length > 120)) continue;
    if (!best || fields > best.fields) best = { delimiter, fields };
  }
  return best?.delimiter ?? null;
}

/**
 * For a file already known to be a table: the candidate delimiter that splits the most of the
 * first lines into as many fields as the header has (ragged rows allowed); ',' when none does.
 */
export function guessDelimiter(text: string): string {
  const lines = text.split('\n', 50).filter((l) => l.trim() !== '');
  let best = { delimiter: ',', score: 0 };
  for (const delimiter of [',', '\t', ';', '|']) {
    const header = countFields(lines[0] ?? '', delimiter);
    if (header < 2) continue;
    const score = lines.filter((l) => countFields(l, delimiter) === header).length;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

const MARKDOWN_FEATURES: RegExp[] = [
  /^#{1,6}[ \t]+\S/m, // ATX heading
  /^\S.*\n(=+|-+)[ \t]*$/m, // setext heading
  /^[ \t]*[-*+][ \t]+\S/m, // bullet list
  /^[ \t]*\d{1,3}[.)][ \t]+\S/m, // ordered list
  /^(```|~~~)/m, // fenced code
  /\[[^\]\n]+\]\([^)\s]+\)/, // inline link
  /(\*\*|__)\S[^\n]*?\S\1/, // strong
  /^>[ \t]?\S/m, // blockquote
  /^\|.*\|[ \t]*\n\|?[ \t]*:?-{3,}/m, // table
];

function looksLikeMarkdown(text: string): boolean {
  let score = 0;
  for (const feature of MARKDOWN_FEATURES) if (feature.test(text)) score++;
  return score >= 2 || (score >= 1 && /^#{1,6}[ \t]+\S/m.test(text) && /^#{1,6}[ \t]+\S/m.test(text.slice(0, 2000)));
}

function sniffText(text: string, partial: boolean): TextSniff {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed === '') return { mime: MIME.text, strength: 'weak' };
  const first = trimmed[0];
  if (first === '{' || first === '[') {
    if (!partial) {
      try {
        const value: unknown = JSON.parse(trimmed);
        if (value !== null && typeof value === 'object') return { mime: MIME.json, strength: 'strong' };
      } catch {
        // not JSON
      }
    } else if (/^[[{]\s*(["{[\]}]|-?\d|true\b|false\b|null\b)/.test(trimmed)) {
      // A prefix of a large file cannot be parsed whole: judge by its shape.
      if (first === '{' ? /^\{\s*("(?:[^"\\\n]|\\.)*"\s*:|\})/.test(trimmed) : !/^\[[^\]\n]*\]\(/.test(trimmed)) return { mime: MIME.json, strength: 'strong' };
    }
  }
  const start = trimmed.slice(0, 1024).toLowerCase();
  const noComments = start.replace(/^(<!--[\s\S]*?-->\s*|<\?xml[^>]*>\s*)*/, '');
  if (noComments.startsWith('<!doctype html') || /^<html[\s>]/.test(noComments)) return { mime: MIME.html, strength: 'strong' };
  if (noComments.startsWith('<') && /<(head|body|title|meta|div|p|table|h[1-6]|article|section|script|style|link)[\s>/]/.test(start)) return { mime: MIME.html, strength: 'medium' };
  const delimiter = sniffDelimiter(text, partial);
  if (delimiter && !looksLikeMarkdown(text)) return { mime: delimiter === '\t' ? MIME.tsv : MIME.csv, strength: 'medium' };
  if (looksLikeMarkdown(text)) return { mime: MIME.markdown, strength: 'weak' };
  return { mime: MIME.text, strength: 'weak' };
}

// ---------------------------------------------------------------------------------------------

/** Decides the real type of a file; see the module comment for the policy. Never throws. */
export function detectMime(input: DetectMimeInput): DetectedMime {
  const sample = input.bytes.length > SAMPLE_BYTES ? input.bytes.subarray(0, SAMPLE_BYTES) : input.bytes;
  // Exactly 64 KB is most likely a prefix that the caller cut.
  const partial = input.bytes.length >= SAMPLE_BYTES;
  const declared = normalizeMime(input.declared);
  const lookedUp = lookupByName(input.filename || '');
  const byName = normalizeMime(typeof lookedUp === 'string' ? lookedUp : null);
  // What the file claims to be: the declaration, else its name.
  const claim = declared ?? byName;
  const claimSource = declared ? 'declared as' : 'named as';

  const keep = (mime: string): DetectedMime => ({ mime, mismatch: false, corrected: false });
  const correct = (mime: string, why: string): DetectedMime =>
    claim && claim !== mime ? { mime, mismatch: false, corrected: true, detail: `${claimSource} ${claim}, but ${why}; read as ${mime}.` } : keep(mime);
  const mismatch = (mime: string): DetectedMime => ({ mime, mismatch: true, corrected: false, detail: `${claimSource} ${claim ?? 'nothing'}, but the content is ${mime}.` });

  if (sample.length === 0) return keep(claim ?? MIME.text);

  const magic = sniffMagic(sample, input.filename);
  if (magic) {
    if (!claim || claim === magic) return keep(magic);
    if (ZIP_BASED.has(magic) && ZIP_BASED.has(claim)) {
      // A ZIP whose telling entry lies past the sample may well be the Office file it claims to be
      // (the parser will tell); a file declared as a plain ZIP that is a DOCX is just named more exactly.
      if (magic === MIME.zip) return keep(claim);
      if (claim === MIME.zip || claim === 'application/x-zip-compressed') return correct(magic, 'the archive is a document');
    }
    // Only a *declared* type can contradict the content; a misleading extension is just corrected.
    if (declared) return mismatch(magic);
    return correct(magic, 'the content is not');
  }

  const decoded = decodeText(sample, partial);
  if (!decoded) {
    // Binary we cannot identify: nothing to contradict the claim with.
    return keep(claim ?? MIME.octet);
  }

  const sniff = sniffText(decoded.text, partial);
  if (!claim) return keep(sniff.mime);
  if (!isTextualMime(claim)) {
    // Declared a binary format, got text. A `.ts` file is declared video/mp2t by browsers: that is no mismatch.
    if (declared && claim !== 'video/mp2t') return mismatch(sniff.mime);
    return correct(sniff.mime, 'the content is text');
  }
  const c = is(claim);
  const s = is(sniff.mime);
  // The claim already names the flavour the content has (or a more specific name of it).
  if ((c.json && s.json) || (c.html && s.html) || (c.markdown && s.markdown) || (c.table && s.table) || claim === sniff.mime) return keep(claim);
  if (sniff.strength === 'strong') return correct(sniff.mime, `the content is ${s.json ? 'JSON' : 'HTML'}`);
  // Delimiters lining up is weak against an explicit plain-text claim: prose with one semicolon a
  // line is not a table, and a table read as text is still searchable, while prose read as a table is not.
  if (s.table && claim === MIME.text) return keep(claim);
  if (sniff.strength === 'medium' && (claim === MIME.text || !PARSEABLE_TYPES.includes(claim))) {
    return correct(sniff.mime, `the content is ${s.html ? 'HTML' : 'a delimited table'}`);
  }
  // Weak evidence (Markdown structure, plain text) never overrides a text flavour the file claims:
  // declared JSON that does not parse stays JSON, and fails parsing with the reason.
  return keep(claim);
}
