/*
 * Local GGUF models as the wings that list, route to and run them see them. models/local/
 * implements these (registry.ts, and the engine behind host/); the GGUF vocabulary is declared
 * here so every wing reads a model file's header in one shape.
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

/**
 * Where desktop apps keep their models, per OS, relative to the home folder (injectable, so tests
 * build these layouts in a temporary home). Folders that do not exist are skipped by the scan.
 */
export type AppFolder = 'lm_studio' | 'jan' | 'gpt4all' | 'ollama';

/** A GGUF file found on this machine, used where it lies (nothing is copied). */
export interface FoundFile {
  /** Stable for the path: `mdl_gguf<hash of the path>`. */
  id: string;
  path: string;
  /** Unique among the files found: colliding names get the quantisation, the folder or a number added. */
  name: string;
  /** The whole model's: all its shards when it is split. */
  size_bytes: number;
  modified_at: string;
  /** Where it was found: the models shipped with the app, Parley's own folder, an app's folder, or a configured one. */
  found_in: 'bundled' | 'data_dir' | AppFolder | 'folder';
  header: GgufHeader | null;
  /** Why the model cannot run from what the files say (not GGUF, corrupt, a shard missing). */
  error: string | null;
}

export type LocalState = 'unloaded' | 'loading' | 'loaded' | 'failed';

/** A model loaded (or loading) for chat, as routing sees it. */
export interface Resident {
  path: string;
  /** Answers writing with it or waiting for it: it cannot be unloaded while this is above 0. */
  active: number;
  last_used: number;
}

/** How free memory is read: bytes, synchronously and without I/O (routing calls it per decision). */
export type FreeMemory = () => number;

/** llama.cpp running local models, as listings, routing and the load/unload operations use it. */
export interface LocalEnginePort {
  state(path: string): { state: LocalState; error: string | null };
  residents(): Resident[];
  readonly freeMemory: FreeMemory;
  /** An explicit load: with every loaded model writing an answer, it fails as `busy` rather than waiting. */
  load(path: string, header: GgufHeader): Promise<void>;
  unload(path: string): Promise<void>;
  embed(path: string, header: GgufHeader, texts: string[]): Promise<number[][]>;
}

/** Local GGUF models: what was found on this machine, and llama.cpp running them. */
export interface LocalModelsPort {
  readonly engine: LocalEnginePort;
  /** What the last scan found. */
  files(): FoundFile[];
  /** A file registered by path, as its header reads (null until the first scan after it was added). */
  addedFile(path: string): FoundFile | null;
  byId(id: string): FoundFile | undefined;
  /** The file at `path`, found or added, as the last scan read it. */
  byPath(path: string): FoundFile | undefined;
  /** Reads an added file now (right after `POST /models`), so it is listed before the next scan. */
  add(path: string): Promise<FoundFile | null>;
  /** Rescans the folders and re-reads changed headers. */
  refresh(): Promise<FoundFile[]>;
  /** Reads one file's header (for a file added by path); null when it does not exist. */
  inspect(path: string): Promise<FoundFile | null>;
}
