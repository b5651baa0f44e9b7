import { z } from 'zod';
import { NoContent, Timestamp, list, prefixedId } from './common.js';
import { defineOperation } from './define.js';

const DatasetId = prefixedId('ds');
const FolderId = prefixedId('fld');

export const FolderStatus = z.enum(['scanning', 'watching', 'paused', 'error']);

/**
 * A glob over the path relative to the folder (`/` separators, picomatch syntax: `**`, `*.md`,
 * `{a,b}`). Bounded so a list of them cannot make matching expensive.
 */
export const FolderGlob = z
  .string()
  .min(1)
  .max(500)
  .refine((s) => s.isWellFormed(), 'must be well-formed Unicode')
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters');

const Globs = z.array(FolderGlob).max(100);

/**
 * Files of a followed folder by where they are: `seen` every regular file the scan met and the
 * globs admit; of those `ready` and `failed` as their artifacts are, `pending` still queued or
 * processing, `skipped` left out (over the size limit) — see the artifact list for each one.
 */
export const FolderFiles = z.object({
  seen: z.number().int(),
  ready: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  skipped: z.number().int(),
});

export const Folder = z.object({
  id: z.string(),
  dataset_id: z.string(),
  /** Absolute path of the followed directory, as given. */
  path: z.string(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  status: FolderStatus,
  files: FolderFiles,
  /** Why the folder is in `error` (removed, unreadable), or why it is polled; null otherwise. */
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  /**
   * How changes are followed: `events` from the OS watcher, or `polling` — a periodic scan where
   * the OS cannot follow (network drives, too many watches); `error.detail` then says why.
   */
  watch: z.enum(['events', 'polling']),
  /** With `watch: "polling"`: seconds between two scans of the folder; null while OS events follow it. */
  poll_seconds: z.number().nullable(),
  /** Files skipped and why (over the size limit), at most 100 of them. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  created_at: Timestamp,
  last_scan_at: Timestamp.nullable(),
});
export type Folder = z.infer<typeof Folder>;

export const createFolder = defineOperation({
  name: 'folders.create',
  summary:
    'Follows a folder on disk: every regular file the globs admit becomes an artifact keyed by its path relative to the folder, kept in sync live and across restarts. Parley never writes to the folder. Admins only in served mode, under `[folders] allowed_roots` when set.',
  tag: 'Datasets',
  // Reading files off the server's disk is an administrator's power (served mode); the desktop owner is a super admin.
  access: 'admin',
  http: { method: 'POST', path: '/datasets/{id}/folders', status: 201 },
  input: z.object({
    id: DatasetId,
    path: z.string().min(1).max(4096).refine((s) => !s.includes('\0'), 'must not contain NUL'),
    include: Globs.optional(),
    exclude: Globs.optional(),
  }),
  output: Folder,
});

export const listFolders = defineOperation({
  name: 'folders.list',
  summary:
    'The folders a dataset follows, oldest first; to an admin also `allowed_roots`, the folders this server lets be followed (`[folders] allowed_roots`; empty: any folder Parley can read), null to others.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/datasets/{id}/folders', status: 200 },
  input: z.object({ id: DatasetId }),
  output: list(Folder).extend({
    /** Where an admin may point a new folder; paths on the server's disk, so null to anyone else. */
    allowed_roots: z.array(z.string()).nullable(),
  }),
});

export const getFolder = defineOperation({
  name: 'folders.get',
  summary: 'One followed folder with its progress.',
  tag: 'Datasets',
  access: 'user',
  http: { method: 'GET', path: '/datasets/{id}/folders/{folder_id}', status: 200 },
  input: z.object({ id: DatasetId, folder_id: FolderId }),
  output: Folder,
});

export const updateFolder = defineOperation({
  name: 'folders.update',
  summary:
    'Pauses (`status: "paused"`) or resumes (`"watching"`) following a folder, or changes its globs (files no longer admitted leave the dataset; newly admitted ones join it).',
  tag: 'Datasets',
  access: 'admin',
  http: { method: 'PATCH', path: '/datasets/{id}/folders/{folder_id}', status: 200 },
  input: z.object({
    id: DatasetId,
    folder_id: FolderId,
    status: z.enum(['paused', 'watching']).optional(),
    include: Globs.optional(),
    exclude: Globs.optional(),
  }),
  output: Folder,
});

export const deleteFolder = defineOperation({
  name: 'folders.delete',
  summary: 'Stops following a folder and removes the artifacts it brought. Nothing on disk is touched.',
  tag: 'Datasets',
  access: 'admin',
  http: { method: 'DELETE', path: '/datasets/{id}/folders/{folder_id}', status: 204 },
  input: z.object({ id: DatasetId, folder_id: FolderId }),
  output: NoContent,
});
