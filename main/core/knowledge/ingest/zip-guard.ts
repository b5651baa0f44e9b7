/**
 * Reads an Office archive's (DOCX, XLSX, PPTX) central directory — its table of contents at the
 * end of the file — with `yauzl`, and refuses the file before anything is inflated when it
 * declares too many entries or too many uncompressed bytes (a zip bomb). mammoth's jszip would
 * otherwise inflate whatever the archive holds. `read` inflates one entry with a hard output
 * bound, so an entry that lies about its size is caught too.
 */
import yauzl from 'yauzl';
import { IngestError } from './types.js';

export interface ZipEntry {
  name: string;
  /** The uncompressed size the directory declares (which the entry may lie about). */
  size: number;
  entry: yauzl.Entry;
}

export interface ZipLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Inflates one entry, refusing more than `maxBytes` of output whatever the entry declares. */
  read(entry: ZipEntry, maxBytes: number): Promise<Buffer>;
}

const MB = 1024 * 1024;

function corrupt(label: string, why: string): IngestError {
  return new IngestError('parse_error', `${label}: the file is not a readable archive (${why}).`);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The archive's entries, as its central directory declares them; rejects with `too_large` over the limits. */
export async function readZipDirectory(bytes: Buffer, limits: ZipLimits, label: string): Promise<ZipDirectory> {
  let zip: yauzl.ZipFile;
  try {
    // Sizes are checked here against our own bounds: yauzl's check would fail an entry whose
    // declared size is merely wrong, which jszip (and so mammoth) reads anyway.
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false, validateEntrySizes: false });
  } catch (error) {
    throw corrupt(label, reason(error));
  }
  // The count comes from the end of central directory record: nothing is read past it yet.
  if (zip.entryCount > limits.maxEntries) {
    throw new IngestError('too_large', `${label}: the archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are read.`);
  }
  const entries: ZipEntry[] = [];
  let unpacked = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      unpacked += entry.uncompressedSize;
      if (unpacked > limits.maxUnpackedBytes) {
        zip.close();
        throw new IngestError('too_large', `${label}: the archive unpacks to more than ${Math.round(limits.maxUnpackedBytes / MB)} MB; it was not opened.`);
      }
      entries.push({ name: entry.fileName, size: entry.uncompressedSize, entry });
    }
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw corrupt(label, reason(error));
  }
  return { entries, read: (entry, maxBytes) => inflateEntry(zip, entry, maxBytes, label) };
}

async function inflateEntry(zip: yauzl.ZipFile, entry: ZipEntry, maxBytes: number, label: string): Promise<Buffer> {
  const tooLarge = () => new IngestError('too_large', `${label}: ${entry.name} unpacks to more than ${Math.round(maxBytes / MB)} MB.`);
  if (entry.size > maxBytes) throw tooLarge();
  let stream;
  try {
    stream = await zip.openReadStreamPromise(entry.entry);
  } catch (error) {
    throw corrupt(label, `${entry.name}: ${reason(error)}`);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > maxBytes) {
        stream.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw corrupt(label, `${entry.name}: ${reason(error)}`);
  }
  return Buffer.concat(chunks, length);
}
