import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogModel } from '../../../../shared/operations/model-downloads.js';

type Entry = Omit<CatalogModel, 'fits' | 'downloaded' | 'file_name' | 'ram_bytes'>;


const MB = 1024 ** 2;

/**
 * Memory a model needs: its weights, plus the KV cache and compute buffers of a moderate context
 * (4k tokens), plus what llama.cpp itself keeps. A rule of thumb, on the safe side.
 */
export function ramNeeded(sizeBytes: number, kind: CatalogModel['kind']): number {
  return Math.round(sizeBytes * 1.2 + (kind === 'embedding' ? 128 * MB : 768 * MB));
}

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

/**
 * Recommended local models: GGUF Q4_K_M files on Hugging Face, from a model that runs on any
 * laptop to one that wants 8 GB. Sizes are the files' approximate sizes (the server states the
 * exact figure when downloading); no SHA-256 is pinned here, because Hugging Face states each
 * file's SHA-256 when it is downloaded (X-Linked-Etag) and a download is verified against that.
 */
export const RECOMMENDED: readonly Entry[] = [
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
  },
  {
    id: 'nomic-embed-text-v1.5',
    name: 'nomic-embed-text v1.5',
    kind: 'embedding',
    description: 'An embedding model for hybrid search with no network: set it as [retrieval] embedding_model.',
    parameters: '137M',
    quantization: 'Q4_K_M',
    size_bytes: 84_106_624,
    license: 'Apache-2.0',
    license_url: 'https://huggingface.co/nomic-ai/nomic-embed-text-v1.5-GGUF',
    url: hf('nomic-ai/nomic-embed-text-v1.5-GGUF', 'nomic-embed-text-v1.5.Q4_K_M.gguf'),
    sha256: null,
  },
];

const fileOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');

/** The catalogue for this machine: what each model needs, whether it fits, whether it is already here. */
export function catalogFor(totalMemoryBytes: number, modelsDir: string): CatalogModel[] {
  return RECOMMENDED.map((entry) => {
    const ram = ramNeeded(entry.size_bytes, entry.kind);
    const fileName = fileOf(entry.url);
    return { ...entry, file_name: fileName, ram_bytes: ram, fits: ram <= totalMemoryBytes, downloaded: existsSync(join(modelsDir, fileName)) };
  });
}

