import { z } from 'zod';

/** What `GET /models` adds for a local GGUF model (`provider: llama_cpp`). */
export const LocalModelInfo = z.object({
  /** Where the file lies; shown to admins only (null for everyone else). */
  path: z.string().nullable(),
  size_bytes: z.number().int().min(0),
  architecture: z.string().nullable(),
  /** llama.cpp's name of the file type, e.g. `Q4_K_M`, `F16`. */
  quantization: z.string().nullable(),
  /** What the model was trained for, from its header. */
  context_length: z.number().int().nullable(),
  state: z.enum(['unloaded', 'loading', 'loaded', 'failed']),
  /** Why it is `failed`: not a GGUF file, an unsupported architecture, not enough memory, no llama.cpp here. */
  error: z.string().optional(),
  /** `chat` models answer; `embedding` models embed text for hybrid search (`[retrieval] embedding_model`). */
  purpose: z.enum(['chat', 'embedding']),
  /** Where it was found: shipped with the app, Parley's `models/` folder, an app's folder, a configured folder, or added by path. */
  found_in: z.enum(['bundled', 'data_dir', 'lm_studio', 'jan', 'gpt4all', 'ollama', 'folder', 'added']),
});
export type LocalModelInfo = z.infer<typeof LocalModelInfo>;
