import { BoundedReader, DEFAULT_BUDGET_MS, GgufError, MAX_HEADER_BYTES, openHeaderFile, type GgufReadOptions } from './gguf-reader.js';

import type { GgufHeader, ModelSampling, ModelShape } from '../../platform/ports/local-models.js';

export { GgufError, type GgufReadOptions } from './gguf-reader.js';

/**
 * Reads what Parley shows about a GGUF file from its header alone — never the weights — keeping
 * only the keys it needs: every other value (a 150k-token vocabulary, a chat template, a string
 * of any stated length) is stepped over by its length, and no length or count is believed beyond
 * the bytes left in the first MAX_HEADER_BYTES of the file. A hostile header therefore fails the
 * file with a reason, in bounded memory and time, yielding to the event loop at every window read.
 * (node-llama-cpp's `readGgufFileInfo` is not bounded — checked in 3.21.1 for issue #32: it loads
 * every value, arrays element by element into a JS array however many the header claims, a string
 * by allocating whatever length it states, the file's buffer grown by copying it whole at each read;
 * `ignoreKeys` only drops keys after all were read. So it is not used here, and it is an optional
 * dependency, while discovery must read headers without it.)
 */

export type { GgufHeader, ModelSampling, ModelShape };

/** llama.cpp's `llama_ftype` numbers. */
const FILE_TYPES: Record<number, string> = {
  0: 'F32', 1: 'F16', 2: 'Q4_0', 3: 'Q4_1', 7: 'Q8_0', 8: 'Q5_0', 9: 'Q5_1', 10: 'Q2_K', 11: 'Q3_K_S',
  12: 'Q3_K_M', 13: 'Q3_K_L', 14: 'Q4_K_S', 15: 'Q4_K_M', 16: 'Q5_K_S', 17: 'Q5_K_M', 18: 'Q6_K',
  19: 'IQ2_XXS', 20: 'IQ2_XS', 21: 'Q2_K_S', 22: 'IQ3_XS', 23: 'IQ3_XXS', 24: 'IQ1_S', 25: 'IQ4_NL',
  26: 'IQ3_S', 27: 'IQ3_M', 28: 'IQ2_S', 29: 'IQ2_M', 30: 'IQ4_XS', 31: 'IQ1_M', 32: 'BF16',
  36: 'TQ1_0', 37: 'TQ2_0', 38: 'MXFP4',
};

/** Bytes of each fixed-size GGUF value type; 8 (string) and 9 (array) are variable. */
const FIXED_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
/** Real headers hold a few dozen entries (under a hundred); this many is no model. */
const MAX_KV = 100_000;
/** The smallest entry: an empty key's length, a type and a one-byte value. */
const MIN_KV_BYTES = 8 + 4 + 1;
/** Keys are short dotted names; a longer one is none Parley reads, and is stepped over. */
const MAX_KEY_BYTES = 256;
/** Names and architectures are short; a longer string value is stepped over, never loaded. */
const MAX_KEPT_STRING = 4096;
/** Distinct wanted keys kept; a real header has about twenty. */
const MAX_KEPT = 256;

/** The architecture-specific keys Parley reads (after `<architecture>`). */
const ARCH_KEYS = new Set(['context_length', 'pooling_type', 'block_count', 'embedding_length', 'attention.head_count', 'attention.head_count_kv', 'attention.key_length', 'attention.value_length']);

/** Whether Parley needs this key's value: everything else is stepped over by its length. */
function wanted(key: string): boolean {
  if (key === 'general.architecture' || key === 'general.name' || key === 'general.basename' || key === 'general.file_type') return true;
  if (key.startsWith('general.sampling.')) return true;
  const dot = key.indexOf('.');
  return dot > 0 && ARCH_KEYS.has(key.slice(dot + 1));
}

type Scalar = string | number | boolean | null;

/** A key, or null for one too long to be any Parley reads (stepped over). */
async function readKey(r: BoundedReader): Promise<string | null> {
  const n = await r.u64('key length');
  if (n > MAX_KEY_BYTES) {
    r.skip(n, 'a key');
    return null;
  }
  return (await r.bytes(n, 'a key')).toString('utf8');
}

/** One value: read when `keep` (and small), else stepped over without being loaded. */
async function readValue(r: BoundedReader, type: number, keep: boolean): Promise<Scalar> {
  if (type === STRING) {
    const n = await r.u64('string length');
    if (!keep || n > MAX_KEPT_STRING) {
      r.skip(n, 'a string');
      return null;
    }
    return (await r.bytes(n, 'a string')).toString('utf8');
  }
  if (type === ARRAY) {
    await skipArray(r);
    return null;
  }
  const size = FIXED_SIZE[type];
  if (size === undefined) throw new GgufError(`The GGUF header has a value of unknown type ${type} (corrupt file, or a newer GGUF).`);
  if (!keep) {
    r.skip(size);
    return null;
  }
  const b = await r.bytes(size);
  switch (type) {
    case 4:
      return b.readUInt32LE(0);
    case 5:
      return b.readInt32LE(0);
    case 6:
      return b.readFloatLE(0);
    case 7:
      return b[0] !== 0;
    case 10: {
      const v = b.readBigUInt64LE(0);
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
    }
    case 12:
      return b.readDoubleLE(0);
    default:
      return null;
  }
}

/**
 * Steps over an array. Its count is believed only as far as the bytes left can hold that many
 * elements (a claimed 2^52 fails at once); strings are stepped over one length at a time, in
 * runs within the window, so a vocabulary costs no allocation.
 */
async function skipArray(r: BoundedReader): Promise<void> {
  const type = await r.u32();
  const count = await r.u64('array length');
  if (type === ARRAY) throw new GgufError('The GGUF header holds an array of arrays, which llama.cpp does not read (corrupt file).');
  const size = type === STRING ? 8 : FIXED_SIZE[type];
  if (size === undefined) throw new GgufError(`The GGUF header has an array of unknown type ${type} (corrupt file).`);
  const claims = `an array of ${count} ${type === STRING ? 'strings' : 'values'}`;
  if (count > r.left() / size) throw r.beyond(claims);
  if (type !== STRING) {
    r.skip(count * size, claims);
    return;
  }
  let i = 0;
  while (i < count) {
    if (count - i > r.left() / 8) throw r.beyond(claims);
    await r.fill(8, claims);
    r.checkBudget();
    while (i < count && r.buffered() >= 8) {
      const n = r.u64Now('string length');
      i++;
      r.skip(n, claims);
    }
  }
}

/** `general.sampling.*` values that make sense; a nonsense one is left out, so the default applies. */
function samplingOf(values: Map<string, Scalar>): ModelSampling {
  const number = (key: string, ok: (v: number) => boolean): number | undefined => {
    const v = values.get(`general.sampling.${key}`);
    // f32 in the file: 0.95 reads as 0.949999988…; rounded, it is what the makers wrote.
    return typeof v === 'number' && Number.isFinite(v) && ok(v) ? Number(v.toPrecision(6)) : undefined;
  };
  const sampling: ModelSampling = {};
  const temperature = number('temp', (v) => v >= 0 && v <= 5);
  const topP = number('top_p', (v) => v > 0 && v <= 1);
  const topK = number('top_k', (v) => Number.isInteger(v) && v > 0);
  const minP = number('min_p', (v) => v >= 0 && v < 1);
  if (temperature !== undefined) sampling.temperature = temperature;
  if (topP !== undefined) sampling.top_p = topP;
  if (topK !== undefined) sampling.top_k = topK;
  if (minP !== undefined) sampling.min_p = minP;
  return sampling;
}

/** The KV cache's shape from the header's scalars (a per-layer array of head counts reads as absent). */
function shapeOf(int: (key: string) => number | null): ModelShape | null {
  const layers = int('block_count');
  const heads = int('attention.head_count');
  const width = int('embedding_length');
  if (layers === null || heads === null) return null;
  const kvHeads = int('attention.head_count_kv') ?? heads;
  const headWidth = width === null ? null : Math.floor(width / heads);
  const key = int('attention.key_length') ?? headWidth;
  const value = int('attention.value_length') ?? headWidth;
  if (key === null || value === null) return null;
  return { layers, kv_heads: kvHeads, key_length: key, value_length: value };
}

/** The key/value entries Parley needs, read within `r`'s bounds; `clip`: a projector's keys were seen. */
async function readEntries(r: BoundedReader): Promise<{ values: Map<string, Scalar>; clip: boolean }> {
  const kvCount = await r.u64('entry count');
  if (kvCount > MAX_KV || kvCount > r.left() / MIN_KV_BYTES) throw new GgufError(`The GGUF header claims ${kvCount} entries, more than any model has or the file holds (corrupt file).`);
  const values = new Map<string, Scalar>();
  let clip = false;
  for (let i = 0; i < kvCount; i++) {
    if (i % 1024 === 0) r.checkBudget();
    const key = await readKey(r);
    const type = await r.u32();
    if (key?.startsWith('clip.')) clip = true;
    const keep = key !== null && wanted(key) && (values.has(key) || values.size < MAX_KEPT);
    const value = await readValue(r, type, keep);
    if (keep && key !== null) values.set(key, value);
  }
  return { values, clip };
}

/** Parses the header of the GGUF file at `path`; GgufError says why a file is not one. */
export async function readGgufHeader(path: string, options: GgufReadOptions = {}): Promise<GgufHeader> {
  const fh = await (options.open ?? openHeaderFile)(path);
  try {
    const { size } = await fh.stat();
    if (size < 4) throw new GgufError('The file is not a GGUF model (it is too short to be one).');
    const now = options.now ?? (() => performance.now());
    const r = new BoundedReader(fh, Math.min(size, MAX_HEADER_BYTES), size, now, options.budgetMs ?? DEFAULT_BUDGET_MS);
    const magic = await r.bytes(4);
    if (magic.toString('latin1') !== 'GGUF') throw new GgufError('The file is not a GGUF model (it does not start with the GGUF signature).');
    const version = await r.u32();
    if (version < 2 || version > 3) throw new GgufError(`GGUF version ${version} is not supported (versions 2 and 3 are).`);
    await r.u64('tensor count');
    const { values, clip } = await readEntries(r);
    const architecture = values.get('general.architecture');
    if (typeof architecture !== 'string' || !architecture) throw new GgufError('The GGUF header names no architecture (general.architecture).');
    const name = values.get('general.name');
    const basename = values.get('general.basename');
    const fileType = values.get('general.file_type');
    const context = values.get(`${architecture}.context_length`);
    const pooling = values.get(`${architecture}.pooling_type`);
    const int = (key: string) => {
      const v = values.get(`${architecture}.${key}`);
      return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
    };
    return {
      version,
      architecture,
      name: typeof name === 'string' && name.trim() ? name.trim() : null,
      basename: typeof basename === 'string' && basename.trim() ? basename.trim() : null,
      quantization: typeof fileType === 'number' ? (FILE_TYPES[fileType] ?? null) : null,
      context_length: typeof context === 'number' ? context : null,
      // Encoder architectures embed whatever their pooling key says.
      pooling: (typeof pooling === 'number' && pooling > 0) || /bert|^t5encoder$/.test(architecture),
      header_bytes: r.offset,
      sampling: samplingOf(values),
      projector: architecture === 'clip' || clip,
      shape: shapeOf(int),
    };
  } finally {
    await fh.close();
  }
}
