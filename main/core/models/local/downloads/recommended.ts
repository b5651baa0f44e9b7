import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type Config } from '../../../../../shared/config.js';
import type { CatalogModel } from '../../../../../shared/operations/model-downloads.js';
import { contextSizeFor } from '../engine.js';
import type { ModelShape } from '../gguf-header.js';
import { estimateMemory } from '../memory.js';

/** A catalogue entry, with what its GGUF header will say about its size in memory (not shown). */
type Entry = Omit<CatalogModel, 'fits' | 'downloaded' | 'file_name' | 'ram_bytes'> & {
  /** From the model's config: what its KV cache costs per token. */
  shape: ModelShape;
  /** The context it was trained for (`<arch>.context_length`). */
  context_length: number;
};

const shape = (layers: number, kvHeads: number, headWidth: number): ModelShape => ({ layers, kv_heads: kvHeads, key_length: headWidth, value_length: headWidth });

/**
 * Memory a model needs as Parley runs it: its weights, plus the KV cache of the context it gets
 * (`[local_models] context_size`, else its own capped at 8192) for EACH of the `parallel` answers,
 * plus llama.cpp's compute buffers.
 */
export function ramNeeded(entry: Pick<Entry, 'size_bytes' | 'kind' | 'shape' | 'context_length'>, localModels: Config['local_models'] = DEFAULT_CONFIG.local_models): number {
  return estimateMemory({
    weightsBytes: entry.size_bytes,
    shape: entry.shape,
    contextSize: contextSizeFor(localModels, entry),
    sequences: localModels.parallel,
    embedding: entry.kind === 'embedding',
  }).total_bytes;
}

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

/**
 * Recommended local models: GGUF files on Hugging Face (Q4_K_M; MiniLM in Q8_0), from a model that
 * runs on any laptop to one that wants 8 GB. Sizes are the files' approximate sizes (the server states the
 * exact figure when downloading); no SHA-256 is pinned here, because Hugging Face states each
 * file's SHA-256 when it is downloaded (X-Linked-Etag) and a download is verified against that.
 */
export const RECOMMENDED: readonly Entry[] = [
  // First: the embedder the desktop package carries. A run from source searches by keyword until
  // it is downloaded; then `[retrieval] embedding_model = "auto"` takes it up by itself.
  {
    id: 'all-minilm-l6-v2',
    name: 'all-MiniLM-L6-v2',
    kind: 'embedding',
    description: 'The small embedding model the desktop app ships with: hybrid search with no network. Parley uses it as soon as it is downloaded.',
    parameters: '22M',
    quantization: 'Q8_0',
    size_bytes: 24_600_000,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2',
    url: hf('second-state/All-MiniLM-L6-v2-Embedding-GGUF', 'all-MiniLM-L6-v2-Q8_0.gguf'),
    sha256: null,
    shape: shape(6, 12, 32),
    context_length: 512,
  },
  {
    id: 'qwen2.5-0.5b-instruct',
    name: 'Qwen2.5 0.5B Instruct',
    kind: 'chat',
    description: 'The smallest useful chat model: quick on any machine, for short answers and summaries.',
    parameters: '0.5B',
    quantization: 'Q4_K_M',
    size_bytes: 491_400_032,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/blob/main/LICENSE',
    url: hf('Qwen/Qwen2.5-0.5B-Instruct-GGUF', 'qwen2.5-0.5b-instruct-q4_k_m.gguf'),
    sha256: null,
    shape: shape(24, 2, 64),
    context_length: 32768,
  },
  {
    id: 'qwen2.5-1.5b-instruct',
    name: 'Qwen2.5 1.5B Instruct',
    kind: 'chat',
    description: 'Small and capable: good answers over your datasets on a laptop without a GPU.',
    parameters: '1.5B',
    quantization: 'Q4_K_M',
    size_bytes: 1_117_320_736,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/blob/main/LICENSE',
    url: hf('Qwen/Qwen2.5-1.5B-Instruct-GGUF', 'qwen2.5-1.5b-instruct-q4_k_m.gguf'),
    sha256: null,
    shape: shape(28, 2, 128),
    context_length: 32768,
  },
  {
    id: 'llama-3.2-3b-instruct',
    name: 'Llama 3.2 3B Instruct',
    kind: 'chat',
    description: "Meta's small model: balanced quality and speed, with tool calling for agentic answers.",
    parameters: '3B',
    quantization: 'Q4_K_M',
    size_bytes: 2_019_377_696,
    license: 'Llama 3.2 Community License',
    license_url: 'https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/blob/main/LICENSE.txt',
    url: hf('bartowski/Llama-3.2-3B-Instruct-GGUF', 'Llama-3.2-3B-Instruct-Q4_K_M.gguf'),
    sha256: null,
    shape: shape(28, 8, 128),
    context_length: 131072,
  },
  {
    id: 'qwen2.5-3b-instruct',
    name: 'Qwen2.5 3B Instruct',
    kind: 'chat',
    description: 'Strong at structured data, code and many languages for its size.',
    parameters: '3B',
    quantization: 'Q4_K_M',
    size_bytes: 2_104_932_768,
    license: 'Qwen Research License',
    license_url: 'https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF/blob/main/LICENSE',
    url: hf('Qwen/Qwen2.5-3B-Instruct-GGUF', 'qwen2.5-3b-instruct-q4_k_m.gguf'),
    sha256: null,
    shape: shape(36, 2, 128),
    context_length: 32768,
  },
  {
    id: 'phi-3.5-mini-instruct',
    name: 'Phi-3.5 mini Instruct',
    kind: 'chat',
    description: "Microsoft's 3.8B model: good reasoning for its size, long context.",
    parameters: '3.8B',
    quantization: 'Q4_K_M',
    size_bytes: 2_393_232_608,
    license: 'MIT',
    license_url: 'https://huggingface.co/microsoft/Phi-3.5-mini-instruct/blob/main/LICENSE',
    url: hf('bartowski/Phi-3.5-mini-instruct-GGUF', 'Phi-3.5-mini-instruct-Q4_K_M.gguf'),
    sha256: null,
    shape: shape(32, 32, 96),
    context_length: 131072,
  },
  {
    id: 'mistral-7b-instruct-v0.3',
    name: 'Mistral 7B Instruct v0.3',
    kind: 'chat',
    description: 'A proven 7B generalist with function calling.',
    parameters: '7B',
    quantization: 'Q4_K_M',
    size_bytes: 4_372_812_000,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3',
    url: hf('bartowski/Mistral-7B-Instruct-v0.3-GGUF', 'Mistral-7B-Instruct-v0.3-Q4_K_M.gguf'),
    sha256: null,
    shape: shape(32, 8, 128),
    context_length: 32768,
  },
  {
    id: 'llama-3.1-8b-instruct',
    name: 'Llama 3.1 8B Instruct',
    kind: 'chat',
    description: 'The best answers of this list, for machines with 8 GB of memory to spare.',
    parameters: '8B',
    quantization: 'Q4_K_M',
    size_bytes: 4_920_734_016,
    license: 'Llama 3.1 Community License',
    license_url: 'https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/LICENSE',
    url: hf('bartowski/Meta-Llama-3.1-8B-Instruct-GGUF', 'Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf'),
    sha256: null,
    shape: shape(32, 8, 128),
    context_length: 131072,
  },
  {
    id: 'nomic-embed-text-v1.5',
    name: 'nomic-embed-text v1.5',
    kind: 'embedding',
    description: 'A larger embedding model for hybrid search with no network (with its search_query / search_document prefixes): choose it in Settings → Local models → Search embeddings.',
    parameters: '137M',
    quantization: 'Q4_K_M',
    size_bytes: 84_106_624,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/nomic-ai/nomic-embed-text-v1.5-GGUF',
    url: hf('nomic-ai/nomic-embed-text-v1.5-GGUF', 'nomic-embed-text-v1.5.Q4_K_M.gguf'),
    sha256: null,
    shape: shape(12, 12, 64),
    context_length: 2048,
  },
];

const fileOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');

/** The catalogue for this machine: what each model needs as configured, whether it fits, whether it is already here. */
export function catalogFor(totalMemoryBytes: number, modelsDir: string, localModels: Config['local_models'] = DEFAULT_CONFIG.local_models): CatalogModel[] {
  return RECOMMENDED.map((full) => {
    const ram = ramNeeded(full, localModels);
    // The shape only sizes the estimate; the catalogue does not show it.
    const { shape: _shape, context_length: _context, ...entry } = full;
    const fileName = fileOf(entry.url);
    return { ...entry, file_name: fileName, ram_bytes: ram, fits: ram <= totalMemoryBytes, downloaded: existsSync(join(modelsDir, fileName)) };
  });
}

