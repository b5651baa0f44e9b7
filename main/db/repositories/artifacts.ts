import { z } from 'zod';
import type { Artifact } from '../../../shared/operations/datasets.js';
import type { SqlDb as Db } from '../sql.js';
import { decodeCursor, toPage } from './cursor.js';
import { jsonColumnOr } from './decode.js';

export type ArtifactStatus = Artifact['status'];

/**
 * A file of a knowledge base as stored: the API's fields (its error, embedding and source kept as
 * their columns), and its bytes' hash, parts and parser metadata.
 */
export type ArtifactRecord = Pick<Artifact, 'id' | 'key' | 'filename' | 'mime_type' | 'size' | 'upload_id' | 'status' | 'progress' | 'chunk_count' | 'created_at' | 'updated_at'> & {
  seq: number;
  kb_id: string;
  user_id: string | null;
  declared_mime_type: string | null;
  part_size: number;
  sha256: string | null;
  error_code: string | null;
  error_detail: string | null;
  /** Chunks of this artifact with a vector so far (background embedding, migration 180). */
  embedded_chunks: number;
  /** Why embedding this artifact's chunks stopped; null while it goes on or once done. */
  embedding_error: string | null;
  /** What the parser said of the document (format, pages, title…). */
  metadata: ArtifactMetadata;
  /** The watched folder the file comes from and its path there (migration 200); null for uploads. */
  folder_id: string | null;
  source_path: string | null;
  source_mtime_ms: number | null;
  /** While a ready file is parsed again, its old chunks still searchable (migration 200). */
  replacing: boolean;
};

export type ArtifactMetadata = Record<string, string | number>;

/** The row as SQLite holds it (metadata as JSON text, `replacing` as 0/1): for the repositories' own statements only. */
export type ArtifactRow = Omit<ArtifactRecord, 'metadata' | 'replacing'> & { metadata: string; replacing: number };

const Metadata = z.record(z.string(), z.union([z.string(), z.number()]));

/** Metadata only informs (nothing decides on it): unreadable, it reads as none. */
export function decodeArtifact<R extends ArtifactRow>(row: R): Omit<R, 'metadata' | 'replacing'> & Pick<ArtifactRecord, 'metadata' | 'replacing'> {
  return { ...row, metadata: jsonColumnOr(Metadata, row.metadata, {}), replacing: row.replacing === 1 };
}

/** Decodes one row that may be absent. */
const one = (row: ArtifactRow | undefined): ArtifactRecord | undefined => row && decodeArtifact(row);
const many = (rows: ArtifactRow[]): ArtifactRecord[] => rows.map(decodeArtifact);

export interface UploadRecord {
  id: string;
  kb_id: string;
  user_id: string | null;
  status: 'open' | 'completed' | 'expired';
  expires_at: string;
  created_at: string;
  completed_at: string | null;
}

interface PageFilter {
  status: string | null;
  folder_id: string | null;
  source: 'upload' | 'folder' | null;
}

export function createArtifactsRepo(db: Db) {
  const byId = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE id = ?');
  const byKey = db.prepare<[string, string], ArtifactRow>('SELECT * FROM artifacts WHERE kb_id = ? AND key = ?');
  const byUpload = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE upload_id = ? ORDER BY seq');
  // The filters a page may have: a status, one followed folder, uploads only or folders' files only.
  const filters = `(@status IS NULL OR status = @status) AND (@folder_id IS NULL OR folder_id = @folder_id)
     AND (@source IS NULL OR (@source = 'upload' AND folder_id IS NULL) OR (@source = 'folder' AND folder_id IS NOT NULL))`;
  const pageOf = db.prepare<{ kb_id: string; after: number; limit: number } & PageFilter, ArtifactRow>(
    `SELECT * FROM artifacts WHERE kb_id = @kb_id AND seq > @after AND ${filters} ORDER BY seq LIMIT @limit`,
  );
  // Newest first: the cursor is the smallest seq shown so far, the next page is below it.
  const pageNewestFirst = db.prepare<{ kb_id: string; before: number; limit: number } & PageFilter, ArtifactRow>(
    `SELECT * FROM artifacts WHERE kb_id = @kb_id AND seq < @before AND ${filters} ORDER BY seq DESC LIMIT @limit`,
  );
  const inKb = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE kb_id = ? ORDER BY seq');
  const withStatus = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE status = ? ORDER BY seq');
  const insert = db.prepare(
    `INSERT INTO artifacts (id, kb_id, key, filename, declared_mime_type, size, part_size, upload_id, user_id, status, created_at, updated_at)
     VALUES (@id, @kb_id, @key, @filename, @declared_mime_type, @size, @part_size, @upload_id, @user_id, @status, @now, @now)`,
  );
  const setStatus = db.prepare(
    `UPDATE artifacts SET status = @status, progress = @progress, error_code = @error_code, error_detail = @error_detail, replacing = 0, updated_at = @now WHERE id = @id`,
  );
  const setProgress = db.prepare('UPDATE artifacts SET progress = ?, updated_at = ? WHERE id = ?');
  const setStored = db.prepare('UPDATE artifacts SET sha256 = @sha256, mime_type = @mime_type, updated_at = @now WHERE id = @id');
  const setReady = db.prepare(
    "UPDATE artifacts SET status = 'ready', progress = 1, mime_type = @mime_type, chunk_count = @chunk_count, metadata = @metadata, error_code = NULL, error_detail = NULL, embedded_chunks = 0, embedding_error = NULL, replacing = 0, updated_at = @now WHERE id = @id AND status = 'processing'",
  );
  const remove = db.prepare('DELETE FROM artifacts WHERE id = ?');
  // Embedding progress: counted per stored batch (the ids are chunks that had no vector before).
  const countEmbedded = db.prepare<{ ids: string }>(
    `UPDATE artifacts SET embedded_chunks = min(chunk_count, embedded_chunks + (
       SELECT count(*) FROM chunks c WHERE c.artifact_id = artifacts.id AND c.id IN (SELECT CAST(value AS BIGINT) FROM json_each(@ids))
     )), embedding_error = NULL
     WHERE id IN (SELECT DISTINCT artifact_id FROM chunks WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(@ids)))`,
  );
  const resetEmbedded = db.prepare('UPDATE artifacts SET embedded_chunks = 0, embedding_error = NULL');
  const failEmbedding = db.prepare<[string, string]>(
    "UPDATE artifacts SET embedding_error = ? WHERE kb_id = ? AND status = 'ready' AND embedded_chunks < chunk_count",
  );
  const waitingEmbedding = db.prepare<[], { kb_id: string }>(
    "SELECT DISTINCT kb_id FROM artifacts WHERE status = 'ready' AND embedded_chunks < chunk_count AND embedding_error IS NULL",
  );
  const coverage = db.prepare<{ kbs: string | null }, { embedded: number; total: number }>(
    `SELECT coalesce(sum(min(embedded_chunks, chunk_count)), 0) AS embedded, coalesce(sum(chunk_count), 0) AS total
     FROM artifacts WHERE status = 'ready' AND (@kbs IS NULL OR kb_id IN (SELECT value FROM json_each(@kbs)))`,
  );
  const setSize = db.prepare('UPDATE artifacts SET size = ? WHERE id = ?');
  const shaUsers = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM artifacts WHERE sha256 = ?');
  const allShas = db.prepare('SELECT DISTINCT sha256 FROM artifacts WHERE sha256 IS NOT NULL');
  const shasOfKbs = (kbIds: string[]) =>
    kbIds.length === 0
      ? []
      : (db.prepare(`SELECT DISTINCT sha256 FROM artifacts WHERE sha256 IS NOT NULL AND kb_id IN (${kbIds.map(() => '?').join(',')})`).all(...kbIds) as { sha256: string }[]).map(
          (r) => r.sha256,
        );

  const partsOf = db.prepare<[string], { part: number; size: number }>('SELECT part, size FROM upload_parts WHERE artifact_id = ? ORDER BY part');
  const putPart = db.prepare(
    'INSERT INTO upload_parts (artifact_id, part, size, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (artifact_id, part) DO UPDATE SET size = excluded.size, received_at = excluded.received_at',
  );
  const receivedBytes = db.prepare<[string], { n: number }>('SELECT coalesce(sum(size), 0) AS n FROM upload_parts WHERE artifact_id = ?');
  const clearParts = db.prepare('DELETE FROM upload_parts WHERE artifact_id = ?');

  const uploadById = db.prepare<[string], UploadRecord>('SELECT * FROM uploads WHERE id = ?');
  const expiredOpen = db.prepare<[string], UploadRecord>("SELECT * FROM uploads WHERE status = 'open' AND expires_at <= ?");
  const formUploading = db.prepare<[], ArtifactRow>("SELECT * FROM artifacts WHERE status = 'uploading' AND upload_id IS NULL");
  const insertUpload = db.prepare(
    "INSERT INTO uploads (id, kb_id, user_id, status, expires_at, created_at) VALUES (@id, @kb_id, @user_id, 'open', @expires_at, @now)",
  );
  const setUploadStatus = db.prepare('UPDATE uploads SET status = ?, completed_at = ? WHERE id = ?');

  const reads = {
    get: (id: string) => one(byId.get(id)),
    getByKey: (kbId: string, key: string) => one(byKey.get(kbId, key)),
    ofUpload: (uploadId: string) => many(byUpload.all(uploadId)),
    inKb: (kbId: string) => many(inKb.all(kbId)),
    withStatus: (status: ArtifactStatus) => many(withStatus.all(status)),
    page(
      kbId: string,
      limit: number,
      cursor: string | undefined,
      status: ArtifactStatus | undefined,
      order: 'oldest' | 'newest' = 'oldest',
      only: { folder_id?: string | undefined; source?: 'upload' | 'folder' | undefined } = {},
    ) {
      const from = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && from === undefined) return undefined;
      const filter: PageFilter = { status: status ?? null, folder_id: only.folder_id ?? null, source: only.source ?? null };
      if (order === 'newest') {
        return toPage(many(pageNewestFirst.all({ kb_id: kbId, before: from ?? Number.MAX_SAFE_INTEGER, limit: limit + 1, ...filter })), limit);
      }
      return toPage(many(pageOf.all({ kb_id: kbId, after: from ?? 0, limit: limit + 1, ...filter })), limit);
    },
    /** Knowledge bases with ready artifacts still waiting for vectors (start-up resumes them). */
    kbsWaitingForEmbedding: () => waitingEmbedding.all().map((r) => r.kb_id),
    /** How many of the ready chunks of these knowledge bases (default: all) have vectors of the current model. */
    embeddingCoverage: (kbIds?: readonly string[]) => coverage.get({ kbs: kbIds ? JSON.stringify(kbIds) : null }) ?? { embedded: 0, total: 0 },
    /** How many artifacts share these bytes (content-addressed, so identical files share a blob). */
    shaUsers: (sha256: string) => shaUsers.get(sha256)?.n ?? 0,
    shasOfKbs,
    /** Every stored blob some artifact uses (the start-up sweep removes the others). */
    allShas: () => new Set((allShas.all() as { sha256: string }[]).map((r) => r.sha256)),
    parts: (artifactId: string) => partsOf.all(artifactId),
    receivedBytes: (artifactId: string) => receivedBytes.get(artifactId)?.n ?? 0,
    getUpload: (id: string) => uploadById.get(id),
    /** Open uploads whose signed URLs have expired (`now` as ISO-8601). */
    expiredOpenUploads: (now: string) => expiredOpen.all(now),
    /** Form uploads still receiving bytes: at start-up, what a crash or a full disk left behind. */
    formUploadsInFlight: () => many(formUploading.all()),
  };
  const writes = {
    insert: (row: Pick<ArtifactRecord, 'id' | 'kb_id' | 'key' | 'filename' | 'declared_mime_type' | 'size' | 'part_size' | 'upload_id' | 'user_id' | 'status'> & { now: string }) =>
      insert.run(row),
    setStatus: (id: string, status: ArtifactStatus, now: string, error?: { code: string; detail: string }, progress = 0) =>
      setStatus.run({ id, status, progress, error_code: error?.code ?? null, error_detail: error?.detail ?? null, now }),
    setProgress: (id: string, progress: number, now: string) => setProgress.run(progress, now, id),
    setStored: (id: string, sha256: string, mimeType: string | null, now: string) => setStored.run({ id, sha256, mime_type: mimeType, now }),
    setReady: (id: string, r: { mime_type: string; chunk_count: number; metadata: ArtifactMetadata; now: string }) => setReady.run({ id, ...r, metadata: JSON.stringify(r.metadata) }),
    delete: (id: string) => remove.run(id).changes > 0,
    /** Counts a stored batch of vectors towards their artifacts' embedding progress. */
    countEmbedded: (chunkIds: readonly number[]) => countEmbedded.run({ ids: JSON.stringify(chunkIds) }),
    /** The vector table was rebuilt (another model): every artifact starts over. */
    resetEmbedded: () => resetEmbedded.run(),
    /** Embedding a knowledge base stopped: its unfinished artifacts say why. */
    failEmbedding: (kbId: string, reason: string) => failEmbedding.run(reason, kbId),
    setSize: (id: string, size: number) => setSize.run(size, id),
    putPart: (artifactId: string, part: number, size: number, now: string) => putPart.run(artifactId, part, size, now),
    clearParts: (artifactId: string) => clearParts.run(artifactId),
    insertUpload: (row: { id: string; kb_id: string; user_id: string; expires_at: string; now: string }) => insertUpload.run(row),
    setUploadStatus: (id: string, status: UploadRecord['status'], now: string | null) => setUploadStatus.run(status, now, id),
  };
  return { ...reads, ...writes };
}

export type ArtifactsRepo = ReturnType<typeof createArtifactsRepo>;
