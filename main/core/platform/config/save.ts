import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { basename } from 'node:path';
import type { Config } from '../../../../shared/config.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { ConfigVersionRecord } from '../../../db/repositories/config-versions.js';
import { writeFileAtomic } from './load.js';
import { storageError } from '../storage/disk-full.js';
import type { LiveConfig } from './live.js';
import { parseConfig } from '../../../../shared/config-parse.js';
import type { Logger } from '../logger.js';
import { errorText } from '../../../../shared/errors.js';

export interface ConfigStore {
  repos: Repositories;
  live: LiveConfig;
}

export interface NewVersion {
  toml: string;
  /** The parsed `toml`: only validated text is ever stored. */
  config: Config;
  source: ConfigVersionRecord['source'];
  created_by: string | null;
  now: string;
}

/**
 * Stores a validated configuration as the next version, writes it to `parley.toml` (atomically;
 * a failed write stores nothing) and puts it in force. Synchronous, so two saves never interleave.
 */
export function commitVersion(store: ConfigStore, next: NewVersion, options: { writeFile: boolean } = { writeFile: true }): number {
  const { repos, live } = store;
  const version = repos.transaction(() => {
    const inserted = repos.configVersions.insert({ toml: next.toml, created_at: next.now, created_by: next.created_by, source: next.source });
    if (options.writeFile) {
      try {
        writeFileAtomic(live.file, next.toml);
      } catch (error) {
        // A full disk is the user's to fix: 507, and the version is not stored (the transaction rolls back).
        throw storageError(error);
      }
    }
    return inserted;
  });
  live.apply({ config: next.config, toml: next.toml, version });
  return version;
}

/**
 * Catches up with a hand edit of `parley.toml`: a valid one becomes a new version (source `file`)
 * in force at once; an invalid one is kept as the file's problems, the version in force staying.
 * Run before every configuration operation (so a save cannot silently overwrite a hand edit: it
 * then meets a newer version, 409) and when the file changes.
 */
export function syncFromFile(store: ConfigStore, now: string): void {
  const { live } = store;
  let text: string;
  try {
    text = readFileSync(live.file, 'utf8');
  } catch {
    // Gone or unreadable: what is in force stays, and the next save writes the file again.
    return;
  }
  if (text === live.toml()) {
    if (live.fileProblems().length > 0) live.setFileProblems([]);
    return;
  }
  const parsed = parseConfig(text);
  if (!parsed.ok) {
    live.setFileProblems(parsed.errors);
    return;
  }
  commitVersion(store, { toml: text, config: parsed.config, source: 'file', created_by: null, now }, { writeFile: false });
}

/**
 * Follows hand edits of `parley.toml` while running, by polling its stat (once a second by default):
 * it survives the file being replaced by a rename (our saves and most editors'), and the database
 * files next to it, written all the time, cost nothing. Returns what stops it.
 */
export function watchConfigFile(store: ConfigStore, options: { now: () => string; log: Logger; intervalMs?: number }): () => void {
  const file = store.live.file;
  const onChange = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino) return;
    try {
      syncFromFile(store, options.now());
    } catch (error) {
      options.log.warn(`Could not pick up the edit of ${basename(file)}: ${errorText(error)}`);
    }
  };
  watchFile(file, { persistent: false, interval: options.intervalMs ?? 1000 }, onChange);
  return () => unwatchFile(file, onChange);
}
