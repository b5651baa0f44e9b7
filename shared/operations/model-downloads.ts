import { z } from 'zod';
import { Timestamp, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';

/**
 * Where a download stands. `queued` waits for a free slot; `downloading` streams (and retries with
 * back-off after a network failure, for up to a day without a byte, resuming with `Range`);
 * `verifying` checks the SHA-256; the last three are final. A failed download keeps the bytes it
 * got (unless they were the wrong file): downloading the same URL again goes on from them.
 */
export const DownloadStatus = z.enum(['queued', 'downloading', 'verifying', 'complete', 'failed', 'cancelled']);
export type DownloadStatus = z.infer<typeof DownloadStatus>;

export const ModelDownload = z.object({
  id: z.string(),
  url: z.string(),
  /** The file name it gets in `<data-dir>/models/`. */
  file_name: z.string(),
  status: DownloadStatus,
  bytes_done: z.number().int().nonnegative(),
  /** Null until the server has said how large the file is. */
  bytes_total: z.number().int().nonnegative().nullable(),
  /** The SHA-256 the file must have: the one given, or the one the server stated; null when neither. */
  sha256_expected: z.string().nullable(),
  /** Where the expected SHA-256 came from. */
  sha256_source: z.enum(['given', 'server']).nullable(),
  /** The SHA-256 of the finished file, once verified. */
  sha256: z.string().nullable(),
  /** Why it failed (or the network problem it is retrying after), in a sentence. */
  error: z.string().nullable(),
  /** How many times the connection was resumed after a failure or a restart. */
  resumes: z.number().int().nonnegative(),
  /**
   * While it waits to try again after a network or server failure (still `downloading`, `error`
   * saying why): when the next try starts. Null otherwise.
   */
  retry_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ModelDownload = z.infer<typeof ModelDownload>;

const DownloadUrl = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** A plain file name: no folders, no leading dot; `.gguf` is added when missing. */
const FileName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._ ()+-]*$/, 'must be a plain file name (letters, digits, . _ - + ( ) and spaces; no folders)');

const DownloadId = prefixedId('dl');

export const createDownload = defineOperation({
  name: 'models.downloads.create',
  summary:
    'Downloads a GGUF model into the data directory: streamed to a temporary file, resumed with Range after a failure or a restart, verified by SHA-256 (given, or stated by the server), then moved into place. Answers at once; poll GET /models/downloads/{id} for progress.',
  tag: 'Local models',
  access: 'admin',
  http: { method: 'POST', path: '/models/downloads', status: 202 },
  input: z.object({
    url: DownloadUrl,
    sha256: z
      .string()
      .trim()
      .regex(/^[A-Fa-f0-9]{64}$/, 'must be 64 hexadecimal characters')
      .transform((s) => s.toLowerCase())
      .optional(),
    name: FileName.optional(),
  }),
  output: ModelDownload,
});

export const listDownloads = defineOperation({
  name: 'models.downloads.list',
  summary: 'Model downloads, newest first, with their progress.',
  tag: 'Local models',
  access: 'admin',
  http: { method: 'GET', path: '/models/downloads', status: 200 },
  input: z.object({}),
  output: list(ModelDownload),
});

export const getDownload = defineOperation({
  name: 'models.downloads.get',
  summary: 'One model download and its progress.',
  tag: 'Local models',
  access: 'admin',
  http: { method: 'GET', path: '/models/downloads/{id}', status: 200 },
  input: z.object({ id: DownloadId }),
  output: ModelDownload,
});

export const cancelDownload = defineOperation({
  name: 'models.downloads.cancel',
  summary: 'Cancels a download that has not finished and removes its temporary file; a finished one answers 409.',
  tag: 'Local models',
  access: 'admin',
  http: { method: 'DELETE', path: '/models/downloads/{id}', status: 200 },
  input: z.object({ id: DownloadId }),
  output: ModelDownload,
});

export const CatalogModel = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['chat', 'embedding']),
  description: z.string(),
  /** e.g. `1.5B`. */
  parameters: z.string(),
  quantization: z.string(),
  /** The file's size (the server states the exact figure when downloading). */
  size_bytes: z.number().int().positive(),
  license: z.string(),
  license_url: z.string(),
  url: z.string(),
  file_name: z.string(),
  /** Null when not pinned: the server states it (Hugging Face does for its large files). */
  sha256: z.string().nullable(),
  /**
   * Memory it needs as configured: weights, plus the KV cache of its context (`[local_models]
   * context_size`, else its own up to 8192) for each of the `parallel` answers, plus compute buffers.
   */
  ram_bytes: z.number().int().positive(),
  /** Whether `ram_bytes` fits in this machine's memory. */
  fits: z.boolean(),
  /** Whether a file of that name is already in `<data-dir>/models/`. */
  downloaded: z.boolean(),
});
export type CatalogModel = z.infer<typeof CatalogModel>;

export const modelCatalog = defineOperation({
  name: 'models.catalog',
  summary: "Recommended local models (chat and embedding) with size, licence, URL, the memory each needs and whether it fits this machine's memory.",
  tag: 'Local models',
  access: 'user',
  http: { method: 'GET', path: '/models/catalog', status: 200 },
  input: z.object({}),
  output: z.object({ memory_total_bytes: z.number().int().nonnegative(), data: z.array(CatalogModel) }),
});
