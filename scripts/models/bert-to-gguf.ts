/**
 * Converts a sentence-transformers BERT folder (config.json, model.safetensors, vocab.txt, and
 * 1_Pooling/config.json) into a GGUF that llama.cpp runs as an embedding model — the mapping of
 * llama.cpp's own `convert_hf_to_gguf.py` for `BertModel`, written in TypeScript so that fetching
 * test models and packaging the desktop app's embedder need no Python ML stack.
 *
 * Facts it follows: tensor names as llama.cpp's BERT graph expects them; a row-major safetensors
 * shape [out, in] is GGML's [in, out] over the same bytes; the WordPiece vocabulary in llama.cpp's
 * "phantom space" spelling (a word start is prefixed with U+2581, a `##` continuation loses its
 * `##`, `[…]` specials stay); 2-D weights stored as F16 (half the size, the precision
 * llama.cpp's converter uses by default), norms and biases as F32.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GGML_TYPE, writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';
import { readSafetensors, type SafeTensor } from './safetensors.js';

interface BertConfig {
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  max_position_embeddings: number;
  layer_norm_eps: number;
  type_vocab_size?: number;
  model_type?: string;
}

/** sentence-transformers' own settings (`sentence_bert_config.json`). */
interface SentenceBertConfig {
  max_seq_length?: number;
}

interface PoolingConfig {
  pooling_mode_cls_token?: boolean;
  pooling_mode_mean_tokens?: boolean;
}

/** HF name (after an optional `bert.` prefix) → GGUF name; `{n}` is the layer. */
const NAMES: [RegExp, string][] = [
  [/^embeddings\.word_embeddings\.weight$/, 'token_embd.weight'],
  [/^embeddings\.position_embeddings\.weight$/, 'position_embd.weight'],
  [/^embeddings\.token_type_embeddings\.weight$/, 'token_types.weight'],
  [/^embeddings\.LayerNorm\.(weight|bias)$/, 'token_embd_norm.$1'],
  [/^encoder\.layer\.(\d+)\.attention\.self\.query\.(weight|bias)$/, 'blk.$1.attn_q.$2'],
  [/^encoder\.layer\.(\d+)\.attention\.self\.key\.(weight|bias)$/, 'blk.$1.attn_k.$2'],
  [/^encoder\.layer\.(\d+)\.attention\.self\.value\.(weight|bias)$/, 'blk.$1.attn_v.$2'],
  [/^encoder\.layer\.(\d+)\.attention\.output\.dense\.(weight|bias)$/, 'blk.$1.attn_output.$2'],
  [/^encoder\.layer\.(\d+)\.attention\.output\.LayerNorm\.(weight|bias)$/, 'blk.$1.attn_output_norm.$2'],
  [/^encoder\.layer\.(\d+)\.intermediate\.dense\.(weight|bias)$/, 'blk.$1.ffn_up.$2'],
  [/^encoder\.layer\.(\d+)\.output\.dense\.(weight|bias)$/, 'blk.$1.ffn_down.$2'],
  [/^encoder\.layer\.(\d+)\.output\.LayerNorm\.(weight|bias)$/, 'blk.$1.layer_output_norm.$2'],
];

/** Tensors a sentence embedding does not use. */
const UNUSED = /^(embeddings\.position_ids|pooler\.)/;

function ggufName(hfName: string): string | null {
  const name = hfName.replace(/^bert\./, '');
  if (UNUSED.test(name)) return null;
  for (const [pattern, to] of NAMES) if (pattern.test(name)) return name.replace(pattern, to);
  throw new Error(`Unexpected tensor ${hfName}: not a plain BERT encoder.`);
}

/** llama.cpp's WordPiece spelling: word starts carry U+2581, `##` pieces lose the marks. */
export function phantomSpace(token: string): string {
  if (token.startsWith('[') && token.endsWith(']')) return token;
  if (token.startsWith('##')) return token.slice(2);
  return `\u2581${token}`;
}

/** IEEE 754 binary16 bits of a float, rounded to nearest even. */
function toHalf(value: number, f32: Float32Array, u32: Uint32Array): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa rounds up into the exponent (up to infinity), as it should.
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

function f16Bytes(values: Float32Array): Uint8Array {
  const out = new Uint16Array(values.length);
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (let i = 0; i < values.length; i++) out[i] = toHalf(values[i]!, f32, u32);
  return new Uint8Array(out.buffer);
}

function toTensor(name: string, t: SafeTensor): GgufTensor {
  if (t.dtype !== 'F32') throw new Error(`Tensor ${name} is ${t.dtype}; only F32 checkpoints are converted.`);
  const values = new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength));
  const shape = [...t.shape].reverse();
  const matrix = t.shape.length === 2 && name !== 'token_types.weight';
  return matrix ? { name, shape, type: GGML_TYPE.F16, data: f16Bytes(values) } : { name, shape, type: GGML_TYPE.F32, data: new Uint8Array(values.buffer) };
}

/** The first `rows` rows of a row-major F32 matrix: llama.cpp wants one position embedding per position of the context length. */
function firstRows(t: SafeTensor, rows: number): SafeTensor {
  const [all = 0, width = 0] = t.shape;
  if (rows >= all) return t;
  return { ...t, shape: [rows, width], data: t.data.subarray(0, rows * width * 4) };
}

/** Reads `dir` (a sentence-transformers BERT model) and returns the GGUF file's bytes. */
export async function bertToGguf(dir: string, name: string): Promise<Buffer> {
  const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as BertConfig;
  if (config.model_type !== undefined && config.model_type !== 'bert') throw new Error(`model_type ${config.model_type} is not bert.`);
  const pooling = JSON.parse(await readFile(join(dir, '1_Pooling', 'config.json'), 'utf8').catch(() => '{}')) as PoolingConfig;
  const sentence = JSON.parse(await readFile(join(dir, 'sentence_bert_config.json'), 'utf8').catch(() => '{}')) as SentenceBertConfig;
  // The length the model was trained on (sentence-transformers cuts its input there; MiniLM: 256),
  // not the position table's size (512): Parley's engine truncates embedding inputs to this length,
  // and the table keeps only the positions an input can reach (llama.cpp checks its size against it).
  const contextLength = Math.min(sentence.max_seq_length ?? config.max_position_embeddings, config.max_position_embeddings);
  const vocab = (await readFile(join(dir, 'vocab.txt'), 'utf8')).split('\n');
  if (vocab.at(-1) === '') vocab.pop();
  const special = new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
  const id = (token: string) => {
    const i = vocab.indexOf(token);
    if (i < 0) throw new Error(`vocab.txt has no ${token}.`);
    return i;
  };

  const kv: [string, GgufValue][] = [
    ['general.architecture', { t: 'str', v: 'bert' }],
    ['general.name', { t: 'str', v: name }],
    ['general.file_type', { t: 'u32', v: 1 }], // MOSTLY_F16
    ['bert.context_length', { t: 'u32', v: contextLength }],
    ['bert.embedding_length', { t: 'u32', v: config.hidden_size }],
    ['bert.feed_forward_length', { t: 'u32', v: config.intermediate_size }],
    ['bert.block_count', { t: 'u32', v: config.num_hidden_layers }],
    ['bert.attention.head_count', { t: 'u32', v: config.num_attention_heads }],
    ['bert.attention.layer_norm_epsilon', { t: 'f32', v: config.layer_norm_eps }],
    ['bert.attention.causal', { t: 'bool', v: false }],
    // 1 = mean, 2 = CLS (llama.cpp's enum).
    ['bert.pooling_type', { t: 'u32', v: pooling.pooling_mode_cls_token ? 2 : 1 }],
    ['tokenizer.ggml.model', { t: 'str', v: 'bert' }],
    ['tokenizer.ggml.tokens', { t: 'str[]', v: vocab.map(phantomSpace) }],
    // 1 = normal, 3 = control.
    ['tokenizer.ggml.token_type', { t: 'i32[]', v: vocab.map((t) => (special.has(t) ? 3 : 1)) }],
    ['tokenizer.ggml.token_type_count', { t: 'u32', v: config.type_vocab_size ?? 2 }],
    ['tokenizer.ggml.unknown_token_id', { t: 'u32', v: id('[UNK]') }],
    ['tokenizer.ggml.seperator_token_id', { t: 'u32', v: id('[SEP]') }],
    ['tokenizer.ggml.padding_token_id', { t: 'u32', v: id('[PAD]') }],
    ['tokenizer.ggml.cls_token_id', { t: 'u32', v: id('[CLS]') }],
    ['tokenizer.ggml.mask_token_id', { t: 'u32', v: id('[MASK]') }],
    ['tokenizer.ggml.bos_token_id', { t: 'u32', v: id('[CLS]') }],
  ];

  const tensors: GgufTensor[] = [];
  for (const [hfName, t] of await readSafetensors(join(dir, 'model.safetensors'))) {
    const to = ggufName(hfName);
    if (to) tensors.push(toTensor(to, to === 'position_embd.weight' ? firstRows(t, contextLength) : t));
  }
  return writeGguf(kv, tensors);
}
