/**
 * The storage engine's failures as the core sees them: typed errors, so the core never reads an
 * engine's error codes (SQLite's `SQLITE_…`, PostgreSQL's SQLSTATE: main/db/postgres/connection.ts).
 */

/** The disk (or the database's size limit) is full: the write did not happen. */
export class StorageFullError extends Error {
  constructor(cause: unknown) {
    super('The database could not be written: its disk is full.', { cause });
    this.name = 'StorageFullError';
  }
}

/**
 * The database was closed (Parley is shutting down) while a request still under way wrote to it:
 * served mode closes the database once answers are stored, before the HTTP server has drained, so
 * an upload whose bytes were still arriving meets this. Nothing was written.
 */
export class StorageClosedError extends Error {
  constructor(cause: unknown) {
    super('The database is closed: Parley is shutting down.', { cause });
    this.name = 'StorageClosedError';
  }
}

/** better-sqlite3's error for any use of a closed connection (a TypeError, with no code). */
const CLOSED_MESSAGE = 'The database connection is not open';

/** Whether `error` is a use of the closed database, typed by the repositories or raw from the engine (a transaction). */
export function isStorageClosed(error: unknown): boolean {
  return error instanceof StorageClosedError || (error instanceof TypeError && error.message === CLOSED_MESSAGE);
}

// Only a full disk (SQLite's SQLITE_FULL, PostgreSQL's disk_full 53100): an I/O error can be a
// failing disk, which a "disk is full" message would misname.
const FULL_CODES = new Set(['SQLITE_FULL', '53100']);
/** A foreign key refused: SQLite's code, PostgreSQL's foreign_key_violation. */
const MISSING_REFERENCE_CODES = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

function engineCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A write refused because a row it points at is gone (a foreign key). */
export function isMissingReference(error: unknown): boolean {
  const code = engineCode(error);
  return code !== undefined && MISSING_REFERENCE_CODES.has(code);
}

/** The engine's error → the typed one, when there is one; anything else passes through. */
export function storageError(error: unknown): unknown {
  if (isStorageClosed(error)) return error instanceof StorageClosedError ? error : new StorageClosedError(error);
  const code = engineCode(error);
  return code !== undefined && FULL_CODES.has(code) ? new StorageFullError(error) : error;
}

/** better-sqlite3's result of a write: what a repository function must not hand out. */
type EngineRunResult = { changes: number; lastInsertRowid: number | bigint };

/** A repository as the core sees it: an engine's write result comes back as nothing. */
export type Sealed<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => T extends EngineRunResult ? void : T : R[K];
};

function isRunResult(value: unknown): value is EngineRunResult {
  return typeof value === 'object' && value !== null && 'changes' in value && 'lastInsertRowid' in value;
}

/**
 * Wraps every function of a repository so an engine error leaves it typed and an engine's write
 * result does not leave at all (no SQLite type in a repository's signature: a PostgreSQL
 * implementation could stand in). The repositories' own code stays plain SQL; this is the one place
 * their failures are translated.
 */
export function typedErrors<R extends object>(repo: R): Sealed<R> {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repo)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              const result = (value as (...a: unknown[]) => unknown).apply(repo, args);
              return isRunResult(result) ? undefined : result;
            } catch (error) {
              throw storageError(error);
            }
          }
        : value;
  }
  return wrapped as Sealed<R>;
}
