/**
 * Bytes → text, shared by MIME sniffing and the text parsers so both read a file the same way:
 * UTF-8 (with or without a BOM), UTF-16 with a BOM, and — for files that are plainly text but not
 * valid UTF-8 — Windows-1252, the usual legacy encoding of spreadsheets exported on Windows.
 * Anything else with NUL bytes or many control characters is binary.
 */
import { IngestError } from './types.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Length of `bytes` without an incomplete UTF-8 sequence at its very end (a sniffing sample is cut
 * at an arbitrary byte, possibly inside a character).
 */
function withoutTrailingPartial(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

/** Control characters other than tab, newlines, form feed, vertical tab and escape. */
function isOddControl(b: number): boolean {
  return (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x0b && b !== 0x1b) || b === 0x7f;
}

/**
 * Decodes `bytes` as text, or returns null when they are binary. With `partial`, the bytes are a
 * prefix of the file: an incomplete character at the end is ignored.
 */
export function decodeText(bytes: Uint8Array, partial = false): DecodedText | null {
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) {
      const end = partial ? bytes.length - (bytes.length % 2) : bytes.length;
      return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2, end)), encoding: 'utf-16le' };
    }
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      const end = partial ? bytes.length - (bytes.length % 2) : bytes.length;
      return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2, end)), encoding: 'utf-16be' };
    }
  }
  if (bytes.includes(0)) return null;
  const end = partial ? withoutTrailingPartial(bytes) : bytes.length;
  try {
    // TextDecoder drops a UTF-8 BOM by itself.
    return { text: utf8.decode(bytes.subarray(0, end)), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: text in a legacy single-byte encoding, or binary.
  }
  let odd = 0;
  for (let i = 0; i < end; i++) if (isOddControl(bytes[i] ?? 0)) odd++;
  if (odd > Math.max(2, end * 0.01)) return null;
  return { text: new TextDecoder('windows-1252').decode(bytes.subarray(0, end)), encoding: 'windows-1252' };
}

/** Decodes a whole file that must be text, with Unix newlines; binary → `parse_error`. */
export function decodeTextOrThrow(bytes: Uint8Array, what: string): DecodedText {
  const decoded = decodeText(bytes);
  if (!decoded) throw new IngestError('parse_error', `${what}: the file is not text (it has binary content).`);
  return { text: normalizeNewlines(decoded.text), encoding: decoded.encoding };
}

export function normalizeNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
