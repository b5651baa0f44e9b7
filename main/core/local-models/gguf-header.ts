import { open, type FileHandle } from 'node:fs/promises';

/**
 * Reads what Parley shows about a GGUF file from its header alone — never the weights: a
 * buffered walk over the key/value section (string arrays such as a 150k-token vocabulary are
 * skipped entry by entry, fixed-size arrays in one step). Runs without node-llama-cpp.
 */

/** Sampling a model's makers recommend, as recent llama.cpp converters write it (`general.sampling.*`). */
export interface ModelSampling {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  min_p?: number;
}

export interface GgufHeader {
  version: number;
  architecture: string;
  name: string | null;
  /** `general.basename` (the model's family name without size or version, e.g. `e5`), when written. */
  basename?: string | null;
  /** `general.file_type` as llama.cpp names it (Q4_K_M, F16, …); null when absent or unknown. */
  quantization: string | null;
  context_length: number | null;
  /** Pooling set (mean, cls, last, …): the model makes embeddings rather than chat. */
  pooling: boolean;
  /** Where the tensor data could start at the earliest: the header's own size. */
  header_bytes: number;
  /** Empty when the file recommends nothing (most do not). */
  sampling: ModelSampling;
  /** A vision projector (mmproj, `clip`): a companion of a vision model, never a model on its own. */
  projector: boolean;
  /** The shape the KV cache is sized by; null where the header does not say (or says it per layer). */
  shape: ModelShape | null;
}

/** What a KV cache cell costs: per layer, the keys and values of every KV head. */
export interface ModelShape {
  layers: number;
  /** Key and value heads (fewer than the attention heads with grouped-query attention). */
  kv_heads: number;
  /** Width of one key head and one value head. */
  key_length: number;
  value_length: number;
}

/** A file that is not a GGUF Parley can read, with the reason a user sees. */
export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GgufError';
  }
}

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
/** No real header holds a string this long; beyond it the file is corrupt. */
const MAX_STRING = 64 * 1024 * 1024;
const MAX_KV = 100_000;

class Reader {
  private buf = Buffer.alloc(0);
  private at = 0;
  /** File offset of buf[0]. */
  private base = 0;
  private eof = false;

  constructor(private readonly fh: FileHandle) {}

  get offset(): number {
    return this.base + this.at;
  }

  private async need(n: number): Promise<void> {
    while (this.buf.length - this.at < n) {
      if (this.eof) throw new GgufError('The file ends inside its GGUF header (truncated or corrupt).');
      const rest = this.buf.subarray(this.at);
      const chunk = Buffer.alloc(Math.max(1 << 16, n));
      const { bytesRead } = await this.fh.read(chunk, 0, chunk.length, this.base + this.buf.length);
      if (bytesRead === 0) this.eof = true;
      this.base += this.at;
      this.buf = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
      this.at = 0;
    }
  }

  async bytes(n: number): Promise<Buffer> {
    await this.need(n);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  async skip(n: number): Promise<void> {
    const buffered = this.buf.length - this.at;
    if (n <= buffered) {
      this.at += n;
      return;
    }
    // Past the buffer: move the window without reading what lies between.
    this.base += this.buf.length + (n - buffered);
    this.buf = Buffer.alloc(0);
    this.at = 0;
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<number> {
    const v = (await this.bytes(8)).readBigUInt64LE(0);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError('The GGUF header holds an impossible size (corrupt file).');
    return Number(v);
  }

  async str(): Promise<string> {
    const n = await this.u64();
    if (n > MAX_STRING) throw new GgufError('The GGUF header holds an impossible string length (corrupt file).');
    return (await this.bytes(n)).toString('utf8');
  }
}

async function readScalar(r: Reader, type: number): Promise<string | number | boolean | null> {
  switch (type) {
    case STRING:
      return r.str();
    case 4:
      return r.u32();
    case 5:
      return (await r.bytes(4)).readInt32LE(0);
    case 10:
      return r.u64();
    case 7:
      return (await r.bytes(1))[0] !== 0;
    case 6:
      return (await r.bytes(4)).readFloatLE(0);
    case 12:
      return (await r.bytes(8)).readDoubleLE(0);
    default: {
      const size = FIXED_SIZE[type];
      if (size === undefined) throw new GgufError(`The GGUF header has a value of unknown type ${type} (corrupt file, or a newer GGUF).`);
      await r.skip(size);
      return null;
    }
  }
}

async function skipArray(r: Reader): Promise<void> {
  const type = await r.u32();
  const count = await r.u64();
  if (type === STRING) {
    for (let i = 0; i < count; i++) await r.skip(await r.u64());
  } else if (type === ARRAY) {
    for (let i = 0; i < count; i++) await skipArray(r);
  } else {
    const size = FIXED_SIZE[type];
    if (size === undefined) throw new GgufError(`The GGUF header has an array of unknown type ${type} (corrupt file).`);
    await r.skip(size * count);
  }
}

/** `general.sampling.*` values that make sense; a nonsense one is left out, so the default applies. */
function samplingOf(values: Map<string, string | number | boolean | null>): ModelSampling {
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

/** Parses the header of the GGUF file at `path`; GgufError says why a file is not one. */
export async function readGgufHeader(path: string): Promise<GgufHeader> {
  const fh = await open(path, 'r');
  try {
    const r = new Reader(fh);
    let magic: Buffer;
    try {
      magic = await r.bytes(4);
    } catch {
      throw new GgufError('The file is not a GGUF model (it is too short to be one).');
    }
    if (magic.toString('latin1') !== 'GGUF') throw new GgufError('The file is not a GGUF model (it does not start with the GGUF signature).');
    const version = await r.u32();
    if (version < 2 || version > 3) throw new GgufError(`GGUF version ${version} is not supported (versions 2 and 3 are).`);
    await r.u64(); // tensor count
    const kvCount = await r.u64();
    if (kvCount > MAX_KV) throw new GgufError('The GGUF header claims an impossible number of entries (corrupt file).');
    const values = new Map<string, string | number | boolean | null>();
    for (let i = 0; i < kvCount; i++) {
      const key = await r.str();
      const type = await r.u32();
      if (type === ARRAY) await skipArray(r);
      else values.set(key, await readScalar(r, type));
    }
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
      projector: architecture === 'clip' || [...values.keys()].some((k) => k.startsWith('clip.')),
      shape: shapeOf(int),
    };
  } finally {
    await fh.close();
  }
}
