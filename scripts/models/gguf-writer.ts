/**
 * Writes GGUF v3 files: key/value metadata, then tensors aligned to `general.alignment`. Used by the
 * test fixtures (tiny models written from scratch) and by the converter that turns a
 * sentence-transformers BERT folder into a GGUF llama.cpp can run (`bert-to-gguf.ts`).
 */

const TYPE = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;

/** GGML tensor types this writer emits. */
export const GGML_TYPE = { F32: 0, F16: 1 } as const;

export type GgufValue =
  | { t: 'u32'; v: number }
  | { t: 'f32'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'str'; v: string }
  | { t: 'str[]'; v: string[] }
  | { t: 'i32[]'; v: number[] };

export interface GgufTensor {
  name: string;
  /** GGML order: ne0 (the fastest-varying dimension) first — the reverse of a row-major shape. */
  shape: number[];
  type: (typeof GGML_TYPE)[keyof typeof GGML_TYPE];
  /** The tensor's bytes, little-endian, in GGML order. */
  data: Uint8Array;
}

class Writer {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  bytes(b: Uint8Array) {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.bytes(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.bytes(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.bytes(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.bytes(b);
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  pad(to: number) {
    const rest = this.length % to;
    if (rest) this.bytes(Buffer.alloc(to - rest));
  }
  value(value: GgufValue) {
    switch (value.t) {
      case 'u32':
        this.u32(TYPE.UINT32);
        this.u32(value.v);
        break;
      case 'f32':
        this.u32(TYPE.FLOAT32);
        this.f32(value.v);
        break;
      case 'bool':
        this.u32(TYPE.BOOL);
        this.bytes(Buffer.from([value.v ? 1 : 0]));
        break;
      case 'str':
        this.u32(TYPE.STRING);
        this.str(value.v);
        break;
      case 'str[]':
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.STRING);
        this.u64(value.v.length);
        for (const s of value.v) this.str(s);
        break;
      case 'i32[]':
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.INT32);
        this.u64(value.v.length);
        for (const n of value.v) this.i32(n);
        break;
    }
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** A complete GGUF file in memory. `kv` should hold `general.alignment` when it is not 32. */
export function writeGguf(kv: [string, GgufValue][], tensors: GgufTensor[], alignment = 32): Buffer {
  const w = new Writer();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, value] of kv) {
    w.str(key);
    w.value(value);
  }
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.shape.length);
    for (const n of t.shape) w.u64(n);
    w.u32(t.type);
    w.u64(offset);
    offset += Math.ceil(t.data.byteLength / alignment) * alignment;
  }
  w.pad(alignment);
  for (const t of tensors) {
    w.bytes(t.data);
    w.pad(alignment);
  }
  return w.done();
}

/** An F32 tensor's bytes. */
export function f32Bytes(data: Float32Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
