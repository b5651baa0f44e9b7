import { readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ConfigVersionRecord } from '../../db/repositories/config-versions.js';
import { writeFileAtomic } from './load.js';
import type { LiveConfig } from './live.js';
import { parseConfig } from './parse.js';

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
    if (options.writeFile) writeFileAtomic(live.file, next.toml);
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
 * Follows hand edits of `parley.toml` while running. The directory is watched, not the file: saves
 * (ours and most editors') replace the file by a rename. Returns what stops watching.
 */
export function watchConfigFile(store: ConfigStore, options: { now: () => string; warn: (message: string) => void; debounceMs?: number }): () => void {
  const name = basename(store.live.file);
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    timer = undefined;
    if (!store.repos.db.open) return;
    try {
      syncFromFile(store, options.now());
    } catch (error) {
      options.warn(`Could not pick up the edit of ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let watcher: ReturnType<typeof watch>;
  try {
    watcher = watch(dirname(store.live.file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(check, options.debounceMs ?? 200);
    });
  } catch (error) {
    options.warn(`Hand edits of ${name} are picked up at the next start only: ${error instanceof Error ? error.message : String(error)}`);
    return () => {};
  }
  watcher.on('error', (error) => options.warn(`Stopped following hand edits of ${name}: ${error.message}`));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
