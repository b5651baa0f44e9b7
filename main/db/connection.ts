import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as sqliteVec from 'sqlite-vec';
import { errorText } from '../../shared/errors.js';
import { unpackedPath } from '../launch/packaged-paths.js';
import { LATEST_VERSION, MIGRATIONS, type Migration, type MigrationStep } from './migrations/index.js';
import { registerMessageWords } from './message-words.js';

export type Db = Database.Database;

export class DatabaseFromFutureError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The database ${file} was written by a newer version of Parley (schema ${found}; this version knows up to ${supported}). ` +
        'Update Parley, or point it at another data directory. The database was not changed.',
    );
    this.name = 'DatabaseFromFutureError';
  }
}

export interface OpenOptions {
  /** Path of a better-sqlite3 build for another ABI (Electron's); the Node build by default. */
  nativeBinding?: string;
  migrations?: readonly Migration[];
  /** Told how a migration's long step (re-indexing, …) is getting on, so a start that takes a while can say why. */
  onMigrationProgress?: MigrationProgressListener;
  /** Where to say that sqlite-vec or the ranking extension could not be loaded (default: console.warn). */
  log?: Log;
  /** The ranking extension's file (default: the one `npm run build` made, {@link RANKING_EXTENSION}); `false`: none. */
  rankingExtension?: string | false;
}

type Log = (line: string) => void;
const warn: Log = (line) => console.warn(line);

/** A migration's long step reporting progress: which migration, and how far it is. */
export type MigrationProgressListener = (migration: Migration, step: MigrationStep) => void;

/** Runs `load` on this connection once and remembers whether it loaded; a load that throws is said in one log line (`said(reason)`). */
function loadOnce(loaded: WeakMap<Db, boolean>, db: Db, load: () => boolean, said: (reason: string) => string, log: Log): boolean {
  let ok = loaded.get(db);
  if (ok === undefined) {
    try {
      ok = load();
    } catch (error) {
      ok = false;
      log(said(errorText(error)));
    }
    loaded.set(db, ok);
  }
  return ok;
}

const vectorExtension = new WeakMap<Db, boolean>();

/**
 * sqlite-vec's file for this platform (`sqlite-vec-<os>-<arch>/vec0.*`, where its package says),
 * unpacked in a packaged app: SQLite opens it with its own C calls, which read no asar archive, so
 * `sqliteVec.load(db)` (the archive path) would leave vector search off in the packaged app.
 */
export function vectorExtensionFile(loadablePath: string = sqliteVec.getLoadablePath()): string {
  return unpackedPath(loadablePath);
}

/**
 * Loads sqlite-vec into this connection, once; openDatabase does it for every connection. Its
 * binary ships inside a per-platform npm package; where none fits (or the file cannot be loaded),
 * vector search is off and retrieval ranks by keywords only: said once per connection in one log line.
 */
export function loadVectorExtension(db: Db, log: Log = warn): boolean {
  return loadOnce(
    vectorExtension,
    db,
    () => (db.loadExtension(vectorExtensionFile()), true),
    (reason) => `[retrieval] sqlite-vec could not be loaded (${reason}): vector search is off, retrieval ranks by keywords only`,
    log,
  );
}

/** Whether sqlite-vec is loaded on this connection. */
export function hasVectorExtension(db: Db): boolean {
  return vectorExtension.get(db) === true;
}

/**
 * Parley's SQLite extension (native/parley-fts.c, built by scripts/build-native.mjs): `parley_bm25`,
 * FTS5's bm25 given its terms' document frequencies. The same path from the sources (main/db/) and from the
 * bundles (dist/main/).
 */
export function rankingExtensionFile(moduleUrl: string = import.meta.url, platform: NodeJS.Platform = process.platform): string {
  const name = platform === 'darwin' ? 'parley_fts.dylib' : platform === 'win32' ? 'parley_fts.dll' : 'parley_fts.so';
  // In a packaged app the file is unpacked beside the archive (electron-builder.yml): SQLite cannot read inside it.
  return unpackedPath(fileURLToPath(new URL(`../../dist/native/${name}`, moduleUrl)));
}

export const RANKING_EXTENSION = rankingExtensionFile();

const rankingExtension = new WeakMap<Db, boolean>();

/**
 * Loads the ranking extension into this connection, once; both ways of opening a database do it.
 * Without it (not built: no C compiler at install; or a file that does not load), keyword search
 * ranks with FTS5's own bm25, which counts each term's rows of the whole index once a query: the
 * same scores, slower at a million chunks. A file that is missing or does not load is said in one log line.
 */
export function loadRankingExtension(db: Db, file: string | false = RANKING_EXTENSION, log: Log = warn): boolean {
  return loadOnce(
    rankingExtension,
    db,
    () => {
      if (file === false) return false;
      // Not built (no C compiler when `npm run build` ran): said, since every keyword search is slower without it.
      if (!existsSync(file)) throw new Error('there is no such file: npm run build makes it with a C compiler');
      // SQLite finds the entry point from the file name: sqlite3_parleyfts_init.
      db.loadExtension(file);
      return true;
    },
    (reason) => `[retrieval] the ranking extension ${String(file)} could not be loaded (${reason}): keyword search lets FTS5 count document frequencies instead`,
    log,
  );
}

/** Whether `parley_bm25` can be called on this connection. */
export function hasRankingExtension(db: Db): boolean {
  return rankingExtension.get(db) === true;
}

/** Opens (or creates) the database, sets the pragmas Parley relies on and applies pending migrations. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    loadVectorExtension(db, options.log);
    loadRankingExtension(db, options.rankingExtension, options.log);
    // Before migrating: the messages' index triggers (migration 240) call it.
    registerMessageWords(db);
    migrate(db, file, options.migrations ?? MIGRATIONS, options.onMigrationProgress);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A second, read-only connection to a database another connection has opened (and migrated): for
 * reads in a worker thread. WAL lets it read one consistent snapshot while the app keeps writing;
 * it never writes or migrates, and of the extensions it loads only the ranking one (keyword search).
 */
export function openReadOnlyDatabase(file: string, options: Pick<OpenOptions, 'nativeBinding' | 'rankingExtension' | 'log'> = {}): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 5000');
    loadRankingExtension(db, options.rankingExtension, options.log);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Applies every pending migration in one transaction, so a failure leaves the database as it was;
 * each migration's JS step (if any) runs after its SQL, telling `onProgress` how far it is.
 */
export function migrate(db: Db, file: string, migrations: readonly Migration[] = MIGRATIONS, onProgress?: MigrationProgressListener): number {
  const latest = migrations === MIGRATIONS ? LATEST_VERSION : (migrations[migrations.length - 1]?.version ?? 0);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) throw new DatabaseFromFutureError(file, current, latest);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      m.after?.(db, (step) => onProgress?.(m, step));
    }
    db.pragma(`user_version = ${latest}`);
  })();
  return latest;
}
