/**
 * Reads a `.safetensors` file: an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range, then the tensors' bytes.
 */
import { readFile } from 'node:fs/promises';

export interface SafeTensor {
  dtype: string;
  /** Row-major, as the checkpoint wrote it. */
  shape: number[];
  data: Uint8Array;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** Every tensor of the file, in the header's order. */
export async function readSafetensors(path: string): Promise<Map<string, SafeTensor>> {
  const file = await readFile(path);
  if (file.length < 8) throw new Error(`${path} is not a safetensors file (too short).`);
  const headerLength = Number(file.readBigUInt64LE(0));
  if (headerLength > file.length - 8) throw new Error(`${path}: its header runs past the end of the file.`);
  const header = JSON.parse(file.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, HeaderEntry | Record<string, string>>;
  const base = 8 + headerLength;
  const tensors = new Map<string, SafeTensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const { dtype, shape, data_offsets: [start, end] } = entry as HeaderEntry;
    if (base + end > file.length || start > end) throw new Error(`${path}: tensor ${name} lies outside the file.`);
    tensors.set(name, { dtype, shape, data: file.subarray(base + start, base + end) });
  }
  return tensors;
}
