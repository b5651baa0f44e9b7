import { z } from 'zod';
import { Empty, NoContent, PageQuery, Timestamp, displayText, page, prefixedId } from './common.js';
import { defineOperation } from './define.js';

export const Dataset = z.object({
  id: z.string(),
  kb_id: z.string().describe('The knowledge base that backs the dataset.'),
  name: z.string(),
  description: z.string().nullable(),
  artifact_count: z.number().int(),
  /**
   * Whether the caller may change it (rename, upload, retry or delete files, delete it): its owner
   * and admins. Everyone in the organization may read it and chat with it.
   */
  can_write: z.boolean(),
  /**
   * The thread whose own files these are (attached in its composer, `POST /threads/{id}/files`), or
   * null for an ordinary dataset. Such a dataset is its owner's alone and is deleted with the thread.
   */
  thread_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ArtifactStatus = z.enum(['pending', 'uploading', 'processing', 'ready', 'failed']);

/**
 * A ready file's vectors for hybrid search (issue 9 item 4), when an embedding model is configured:
 * computed in the background, batch by batch, after the file is ready (it is searchable by keyword
 * meanwhile). `done` of `total` chunks have a vector; `failed` keeps the reason in `error`.
 */
export const ArtifactEmbedding = z.object({
  state: z.enum(['embedding', 'ready', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  error: z.string().nullable(),
});

export const Artifact = z.object({
  id: z.string(),
  key: z.string(),
  filename: z.string(),
  mime_type: z.string().nullable(),
  size: z.number().int(),
  upload_id: z.string().nullable(),
  status: ArtifactStatus,
  /** 0 to 1 within the current status (bytes received while uploading). */
  progress: z.number(),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  chunk_count: z.number().int(),
  /** Embedding progress of a ready file; null without an embedding model, or before the file is ready. */
  embedding: ArtifactEmbedding.nullable(),
  /** The followed folder the file comes from and its path there (`/` separators); null for uploads. */
  source: z.object({ folder_id: z.string(), path: z.string() }).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Artifact = z.infer<typeof Artifact>;

/** A file's name in its knowledge base: any text a person would use (`#`, spaces, unicode), no control characters. */
export const ArtifactKey = z
  .string()
  .min(1)
  .max(1024)
  .refine((s) => s.isWellFormed(), 'must be well-formed Unicode')
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters')
  .refine((s) => s.trim() === s, 'must not start or end with spaces');

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks) make a name display as another:
 * `invoice<U+202E>fdp.exe` shows as `invoiceexe.pdf`. A new key or file name may not hold them.
 */
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The name with each bidirectional control written out (`<U+202E>`), safe to show in an error. */
export function showBidiControls(name: string): string {
  return name.replace(new RegExp(BIDI_CONTROL.source, 'gu'), (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

function withoutBidiControls(name: string, ctx: z.RefinementCtx): void {
  if (BIDI_CONTROL.test(name)) {
    ctx.addIssue({ code: 'custom', message: `must not contain bidirectional control characters, which make a name display as another (${JSON.stringify(showBidiControls(name))})` });
  }
}

/** A key a new file takes (uploads, form uploads): an ArtifactKey without bidirectional controls. Existing keys stay reachable by ArtifactKey. */
export const NewArtifactKey = ArtifactKey.superRefine(withoutBidiControls);

const DatasetId = prefixedId('ds');
const KbId = prefixedId('kb');

export const createDataset = defineOperation({
  name: 'datasets.create',
  summary: 'Creates a dataset and the knowledge base behind it.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/datasets', status: 201 },
  input: z.object({ name: displayText(200), description: z.string().max(2000).optional() }),
  output: Dataset,
});

export const listDatasets = defineOperation({
  name: 'datasets.list',
  summary: "The organization's datasets, newest first; the files attached in the caller's threads (each thread's own dataset) only with `include=threads`.",
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/datasets', status: 200 },
  input: PageQuery.extend({ include: z.enum(['threads']).optional() }),
  output: page(Dataset),
});

export const getDataset = defineOperation({
  name: 'datasets.get',
  summary: 'One dataset.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/datasets/{id}', status: 200 },
  input: z.object({ id: DatasetId }),
  output: Dataset,
});

export const updateDataset = defineOperation({
  name: 'datasets.update',
  summary: 'Renames a dataset or changes its description.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'PATCH', path: '/datasets/{id}', status: 200 },
  input: z.object({ id: DatasetId, name: displayText(200).optional(), description: z.string().max(2000).nullable().optional() }),
  output: Dataset,
});

export const deleteDataset = defineOperation({
  name: 'datasets.delete',
  summary:
    'Deletes a dataset with its knowledge base, artifacts, chunks and stored files, the thread configurations that reference it and the agent thoughts that belong to it.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'DELETE', path: '/datasets/{id}', status: 204 },
  input: z.object({ id: DatasetId }),
  output: NoContent,
});

export const listArtifacts = defineOperation({
  name: 'artifacts.list',
  summary:
    'The artifacts of a knowledge base, oldest first (`order=newest`: the latest uploads first), optionally by status (the preferred way to check upload completion), by followed folder (`folder_id`) or by source (`source=upload` | `folder`).',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/knowledge-bases/{kb_id}/artifacts', status: 200 },
  input: PageQuery.extend({
    kb_id: KbId,
    status: ArtifactStatus.optional(),
    /** `oldest` (the default, as integrations rely on) or `newest`, as people look at a file list. A cursor keeps the order it was made in. */
    order: z.enum(['oldest', 'newest']).default('oldest'),
    /** Only the files one followed folder brought (watched folders). */
    folder_id: prefixedId('fld').optional(),
    /** Only uploaded files (`upload`) or only files from followed folders (`folder`). */
    source: z.enum(['upload', 'folder']).optional(),
  }),
  output: page(Artifact),
});

export const getArtifact = defineOperation({
  name: 'artifacts.get',
  summary: 'One artifact by its key (percent-encoded in the path).',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/knowledge-bases/{kb_id}/artifacts/{key}', status: 200 },
  input: z.object({ kb_id: KbId, key: ArtifactKey }),
  output: Artifact,
});

export const artifactLink = defineOperation({
  name: 'artifacts.link',
  summary:
    'A short-lived signed URL of the stored file (`GET …/artifacts/{key}/content?expires&signature`, no Bearer token needed), for a browser to open it in a tab. Valid for five minutes.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/knowledge-bases/{kb_id}/artifacts/{key}/link', status: 200 },
  input: z.object({ kb_id: KbId, key: ArtifactKey }),
  output: z.object({ url: z.string(), expires_at: Timestamp }),
});

export const deleteArtifact = defineOperation({
  name: 'artifacts.delete',
  summary: 'Removes an artifact, its chunks and (when nothing else uses them) its stored bytes.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'DELETE', path: '/knowledge-bases/{kb_id}/artifacts/{key}', status: 204 },
  input: z.object({ kb_id: KbId, key: ArtifactKey }),
  output: NoContent,
});

export const retryArtifact = defineOperation({
  name: 'artifacts.retry',
  summary: 'Processes a failed artifact again (after the configuration changed, say).',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/knowledge-bases/{kb_id}/artifacts/{key}/retry', status: 200 },
  input: z.object({ kb_id: KbId, key: ArtifactKey }),
  output: Artifact,
});

export const cancelArtifact = defineOperation({
  name: 'artifacts.cancel',
  summary: "Stops a processing artifact's parsing and indexing: its chunks go, and it ends failed with the code `cancelled` (retry processes it again).",
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/knowledge-bases/{kb_id}/artifacts/{key}/cancel', status: 200 },
  input: z.object({ kb_id: KbId, key: ArtifactKey }),
  output: Artifact,
});

const UploadFile = z.object({
  key: NewArtifactKey,
  filename: displayText(255).superRefine(withoutBidiControls),
  size: z.number().int().min(1, 'an empty file has nothing to upload').max(Number.MAX_SAFE_INTEGER),
  mime_type: z.string().max(200).optional(),
});

export const UploadUrl = z.object({ part: z.number().int(), method: z.literal('PUT'), url: z.string(), size: z.number().int() });

export const Upload = z.object({
  upload_id: z.string(),
  kb_id: z.string(),
  status: z.enum(['open', 'completed', 'expired']),
  expires_at: Timestamp,
  files: z.array(z.object({ key: z.string(), artifact_id: z.string(), part_size: z.number().int(), urls: z.array(UploadUrl) })),
  artifacts: z.array(Artifact),
});

export const createUpload = defineOperation({
  name: 'uploads.create',
  summary: 'Starts a multi-part upload: one artifact per file and one signed PUT URL per part (no bearer token needed for those).',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/uploads', status: 201 },
  input: z.object({
    kb_id: KbId,
    files: z
      .array(UploadFile)
      .min(1)
      .max(1000)
      .refine((files) => new Set(files.map((f) => f.key)).size === files.length, 'keys must be unique within an upload'),
  }),
  output: Upload,
});

export const getUpload = defineOperation({
  name: 'uploads.get',
  summary: 'The whole upload with every artifact’s status.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/uploads/{upload_id}', status: 200 },
  input: z.object({ upload_id: prefixedId('upl') }),
  output: Upload,
});

/** What an upload may hold, so a client can say so before sending (the service checks again). */
export const UploadLimits = z.object({
  /** The largest file, in bytes (`[uploads] max_file_mb`). */
  max_file_bytes: z.number().int(),
  /** The types accepted after detection (`[uploads] allowed_types`). */
  allowed_types: z.array(z.string()),
  /** The file name extensions of those types (`.md`, `.pdf`), for a file picker's filter. */
  extensions: z.array(z.string()),
});

export const uploadLimits = defineOperation({
  name: 'uploads.limits',
  summary: 'The largest file and the types an upload may hold, from the configuration in force.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/upload-limits', status: 200 },
  input: Empty,
  output: UploadLimits,
});

export const completeUpload = defineOperation({
  name: 'uploads.complete',
  summary: 'Ends the upload: files with every part received are assembled and processed; the others fail, saying which parts are missing.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'POST', path: '/uploads/{upload_id}/complete', status: 200 },
  input: z.object({ upload_id: prefixedId('upl') }),
  output: Upload,
});
