import * as sqliteVec from 'sqlite-vec';
import type { Db } from '../../db/connection.js';

export type RetrievalLog = (line: string) => void;

const defaultLog: RetrievalLog = (line) => console.warn(line);

const loaded = new WeakMap<Db, boolean>();

/**
 * Loads sqlite-vec into this connection, once. Its binary ships inside a per-platform npm
 * package; where none fits (or the file cannot be loaded), vector search is off and retrieval
 * ranks by keywords only: said once per connection in one log line.
 */
export function loadVectorExtension(db: Db, log: RetrievalLog = defaultLog): boolean {
  let ok = loaded.get(db);
  if (ok === undefined) {
    try {
      sqliteVec.load(db);
      ok = true;
    } catch (error) {
      ok = false;
      log(`[retrieval] sqlite-vec could not be loaded (${error instanceof Error ? error.message : String(error)}): vector search is off, retrieval ranks by keywords only`);
    }
    loaded.set(db, ok);
  }
  return ok;
}
