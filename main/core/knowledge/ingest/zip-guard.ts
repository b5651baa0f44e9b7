/**
 * Reads an Office archive's (DOCX, XLSX, PPTX) central directory — its table of contents at the
 * end of the file — and refuses the file before anything is inflated when it declares too many
 * entries or too many uncompressed bytes (a zip bomb). mammoth's jszip would otherwise inflate
 * whatever the archive holds. `inflateEntry` inflates one entry with a hard output bound, so an
 * entry that lies about its size is caught too.
 */
import { inflateRawSync } from 'node:zlib';
import { IngestError } from './types.js';

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export interface ZipLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
}

function corrupt(label: string, why: string): IngestError {
  return new IngestError('parse_error', `${label}: the file is not a readable archive (${why}).`);
}

function u64(bytes: Buffer, at: number): number {
  const value = bytes.readBigUInt64LE(at);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

/** The archive's entries, as its central directory declares them; throws `too_large` over the limits. */
export function readZipDirectory(bytes: Buffer, limits: ZipLimits, label: string): ZipEntry[] {
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX_COMMENT); at--) {
    if (bytes.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw corrupt(label, 'no end of central directory');
  let count = bytes.readUInt16LE(eocd + 10);
  let dirSize = bytes.readUInt32LE(eocd + 12);
  let dirOffset = bytes.readUInt32LE(eocd + 16);
  if (eocd >= 20 && bytes.readUInt32LE(eocd - 20) === EOCD64_LOCATOR) {
    const at = u64(bytes, eocd - 20 + 8);
    if (at + 56 > bytes.length || bytes.readUInt32LE(at) !== EOCD64) throw corrupt(label, 'bad ZIP64 directory');
    count = u64(bytes, at + 32);
    dirSize = u64(bytes, at + 40);
    dirOffset = u64(bytes, at + 48);
  }
  if (count > limits.maxEntries) {
    throw new IngestError('too_large', `${label}: the archive has ${count} entries; at most ${limits.maxEntries} are read.`);
  }
  if (dirOffset + dirSize > bytes.length) throw corrupt(label, 'the central directory lies outside the file');
  const entries: ZipEntry[] = [];
  let unpacked = 0;
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw corrupt(label, 'bad central directory entry');
    const method = bytes.readUInt16LE(at + 10);
    let compressedSize = bytes.readUInt32LE(at + 20);
    let size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    let localOffset = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64: the real sizes and offset sit in extra field 0x0001, in this order, for each maxed-out field.
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      let extra = at + 46 + nameLength;
      const extraEnd = extra + extraLength;
      while (extra + 4 <= extraEnd) {
        const id = bytes.readUInt16LE(extra);
        const length = bytes.readUInt16LE(extra + 2);
        if (id === 0x0001) {
          let field = extra + 4;
          if (size === 0xffffffff && field + 8 <= extraEnd) {
            size = u64(bytes, field);
            field += 8;
          }
          if (compressedSize === 0xffffffff && field + 8 <= extraEnd) {
            compressedSize = u64(bytes, field);
            field += 8;
          }
          if (localOffset === 0xffffffff && field + 8 <= extraEnd) localOffset = u64(bytes, field);
          break;
        }
        extra += 4 + length;
      }
    }
    unpacked += size;
    if (unpacked > limits.maxUnpackedBytes) {
      throw new IngestError('too_large', `${label}: the archive unpacks to more than ${Math.round(limits.maxUnpackedBytes / (1024 * 1024))} MB; it was not opened.`);
    }
    entries.push({ name, method, compressedSize, size, localOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Inflates one entry, refusing more than `maxBytes` of output whatever the entry declares. */
export function inflateEntry(bytes: Buffer, entry: ZipEntry, maxBytes: number, label: string): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw corrupt(label, `bad local header for ${entry.name}`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
  const tooLarge = () => new IngestError('too_large', `${label}: ${entry.name} unpacks to more than ${Math.round(maxBytes / (1024 * 1024))} MB.`);
  if (entry.size > maxBytes) throw tooLarge();
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw corrupt(label, `${entry.name} uses compression method ${entry.method}`);
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw corrupt(label, `${entry.name}: ${(error as Error).message}`);
  }
}
