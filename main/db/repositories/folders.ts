import { z } from 'zod';
import type { Folder } from '../../../shared/operations/folders.js';
import type { SqlDb as Db } from '../sql.js';
import { decodeArtifact, type ArtifactRecord, type ArtifactRow } from './artifacts.js';
import { jsonColumn, jsonColumnOr } from './decode.js';

export type FolderStatus = Folder['status'];

/** A followed folder as stored, its JSON columns decoded: the API's fields plus where its error and owner are kept. */
export type FolderRecord = Pick<Folder, 'id' | 'dataset_id' | 'path' | 'include' | 'exclude' | 'status' | 'watch' | 'skipped' | 'created_at' | 'last_scan_at'> & {
  seq: number;
  user_id: string | null;
  error_code: string | null;
  error_detail: string | null;
  skipped_count: number;
};

/** The row as SQLite holds it: the globs and the skipped files as JSON text. */
type FolderRow = Omit<FolderRecord, 'include' | 'exclude' | 'skipped'> & { include: string; exclude: string; skipped: string };

const Globs = z.array(z.string());
const Skipped = z.array(z.object({ path: z.string(), reason: z.string() }));

// Globs decide which files are followed: unreadable ones stop the reader (typed) rather than follow everything.
// The skipped list only informs: unreadable, it reads as none.
function decode(row: FolderRow): FolderRecord {
  const at = (column: string) => ({ table: 'folders', column, id: row.id });
  return {
    ...row,
    include: jsonColumn(Globs, row.include, at('include')),
    exclude: jsonColumn(Globs, row.exclude, at('exclude')),
    skipped: jsonColumnOr(Skipped, row.skipped, []),
  };
}

/** A folder's artifact: an artifact with where it comes from. */
export type FolderArtifactRecord = ArtifactRecord & { folder_id: string; source_path: string };
type FolderArtifactRow = ArtifactRow & { folder_id: string; source_path: string };

export interface FolderCounts {
  ready: number;
  failed: number;
  pending: number;
  total: number;
}

/** Watched folders (migration 200) and the artifacts each brought. */
export function createFoldersRepo(db: Db) {
  const byId = db.prepare<[string], FolderRow>('SELECT * FROM folders WHERE id = ?');
  const ofDataset = db.prepare<[string], FolderRow>('SELECT * FROM folders WHERE dataset_id = ? ORDER BY seq');
  const ids = db.prepare<[], { id: string }>('SELECT id FROM folders ORDER BY seq');
  const insert = db.prepare(
    `INSERT INTO folders (id, dataset_id, user_id, path, include, exclude, status, created_at)
     VALUES (@id, @dataset_id, @user_id, @path, @include, @exclude, 'scanning', @now)`,
  );
  const setStatus = db.prepare('UPDATE folders SET status = @status, error_code = @error_code, error_detail = @error_detail WHERE id = @id');
  const setWatch = db.prepare('UPDATE folders SET watch = ? WHERE id = ?');
  const setGlobs = db.prepare('UPDATE folders SET include = ?, exclude = ? WHERE id = ?');
  const setScanned = db.prepare('UPDATE folders SET last_scan_at = ?, skipped_count = ?, skipped = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM folders WHERE id = ?');
  const counts = db.prepare<[string], FolderCounts>(
    `SELECT count(*) AS total,
            coalesce(sum(status = 'ready'), 0) AS ready,
            coalesce(sum(status = 'failed'), 0) AS failed,
            coalesce(sum(status NOT IN ('ready', 'failed')), 0) AS pending
     FROM artifacts WHERE folder_id = ?`,
  );
  const artifactAt = db.prepare<[string, string], FolderArtifactRow>('SELECT * FROM artifacts WHERE folder_id = ? AND source_path = ?');
  const artifactsWithSha = db.prepare<[string, string], FolderArtifactRow>('SELECT * FROM artifacts WHERE folder_id = ? AND sha256 = ? ORDER BY seq');
  // Paged by seq so a walk over ten thousand rows never holds them all.
  const artifactsAfter = db.prepare<[string, number, number], FolderArtifactRow>('SELECT * FROM artifacts WHERE folder_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  const insertArtifact = db.prepare(
    `INSERT INTO artifacts (id, kb_id, key, filename, declared_mime_type, size, part_size, upload_id, user_id, status, created_at, updated_at, folder_id, source_path, source_mtime_ms, sha256)
     VALUES (@id, @kb_id, @key, @filename, NULL, @size, @size, NULL, @user_id, 'processing', @now, @now, @folder_id, @source_path, @mtime_ms, @sha256)`,
  );
  const setContent = db.prepare(
    // A ready file keeps its chunks searchable while parsed again (replacing, migration 200).
    `UPDATE artifacts SET replacing = CASE WHEN status = 'ready' THEN 1 ELSE replacing END,
       sha256 = @sha256, size = @size, part_size = @size, source_mtime_ms = @mtime_ms, status = 'processing', progress = 0,
       error_code = NULL, error_detail = NULL, updated_at = @now WHERE id = @id`,
  );
  const setMtime = db.prepare('UPDATE artifacts SET source_mtime_ms = ? WHERE id = ?');
  const move = db.prepare('UPDATE artifacts SET key = @key, filename = @filename, source_path = @source_path, source_mtime_ms = @mtime_ms, updated_at = @now WHERE id = @id');

  const reads = {
    get: (id: string): FolderRecord | undefined => {
      const row = byId.get(id);
      return row && decode(row);
    },
    ofDataset: (datasetId: string) => ofDataset.all(datasetId).map(decode),
    /** Every folder's id, oldest first (read one by one, a damaged row stops only its own reader). */
    ids: () => ids.all().map((r) => r.id),
    counts: (id: string): FolderCounts => counts.get(id) ?? { ready: 0, failed: 0, pending: 0, total: 0 },
    artifactAt: (folderId: string, path: string): FolderArtifactRecord | undefined => {
      const row = artifactAt.get(folderId, path);
      return row && decodeArtifact(row);
    },
    artifactsWithSha: (folderId: string, sha256: string): FolderArtifactRecord[] => artifactsWithSha.all(folderId, sha256).map(decodeArtifact),
    artifactsAfter: (folderId: string, seq: number, limit: number): FolderArtifactRecord[] => artifactsAfter.all(folderId, seq, limit).map(decodeArtifact),
  };
  const writes = {
    insert: (row: Pick<FolderRecord, 'id' | 'dataset_id' | 'path' | 'include' | 'exclude'> & { user_id: string; now: string }) =>
      insert.run({ ...row, include: JSON.stringify(row.include), exclude: JSON.stringify(row.exclude) }),
    setStatus: (id: string, status: FolderStatus, error?: { code: string; detail: string } | null) =>
      setStatus.run({ id, status, error_code: error?.code ?? null, error_detail: error?.detail ?? null }),
    setWatch: (id: string, watch: 'events' | 'polling') => setWatch.run(watch, id),
    setGlobs: (id: string, include: FolderRecord['include'], exclude: FolderRecord['exclude']) => setGlobs.run(JSON.stringify(include), JSON.stringify(exclude), id),
    setScanned: (id: string, now: string, skipped: { count: number; first: FolderRecord['skipped'] }) =>
      setScanned.run(now, skipped.count, JSON.stringify(skipped.first), id),
    delete: (id: string) => remove.run(id).changes > 0,
    insertArtifact: (row: { id: string; kb_id: string; key: string; filename: string; size: number; user_id: string | null; now: string; folder_id: string; source_path: string; mtime_ms: number; sha256: string }) =>
      insertArtifact.run(row),
    /** New bytes for a file: processed again from the start. */
    setContent: (id: string, r: { sha256: string; size: number; mtime_ms: number; now: string }) => setContent.run({ id, ...r }),
    setMtime: (id: string, mtimeMs: number) => setMtime.run(mtimeMs, id),
    /** A rename: the artifact (and its chunks) follows the file to its new path, parsed once. */
    move: (id: string, r: { key: string; filename: string; source_path: string; mtime_ms: number; now: string }) => move.run({ id, ...r }),
  };
  return { ...reads, ...writes };
}

export type FoldersRepo = ReturnType<typeof createFoldersRepo>;
