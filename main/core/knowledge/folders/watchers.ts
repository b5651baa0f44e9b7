import { realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FolderRecord } from '../../../db/repositories/folders.js';
import { isHidden, toKey, within } from './paths.js';
import { folderFilter, KeyTaken, removeArtifact, syncFile, type SyncDeps } from './sync.js';
import { walk } from './walk.js';
import type { FolderWatchersPort } from '../../platform/ports/knowledge.js';
import { isCorruptRecord } from '../../platform/storage/corrupt-record.js';
import { ALONE, type WorkClaims } from '../../platform/instances/membership.js';
import type { NoticesPort } from '../../platform/ports/notices.js';

export interface FolderTiming {
  /** A file's size must hold still this long before it is read (chokidar's awaitWriteFinish). */
  stabilityMs: number;
  /** The periodic scan where the OS watcher cannot follow. */
  pollIntervalMs: number;
  /** Tests: start in polling mode, as after ENOSPC. */
  forcePolling?: boolean;
}

export const DEFAULT_FOLDER_TIMING: FolderTiming = { stabilityMs: 500, pollIntervalMs: 60_000 };

/** Files read at once during a scan: enough to keep the disk busy, bounded so memory is. */
const SCAN_CONCURRENCY = 4;
const SKIPPED_LISTED = 100;

interface Follow {
  root: string;
  watcher: FSWatcher | null;
  poll: NodeJS.Timeout | null;
  stopped: boolean;
  /** One chain per key: events on one file apply in order. */
  chains: Map<string, Promise<void>>;
  scanning: Promise<void> | null;
  /** Removals waiting to see whether they were half of a rename. */
  timers: Set<NodeJS.Timeout>;
  /** Files being read now, and those waiting for a turn: a burst of events opens a bounded number of files. */
  reading: number;
  waiting: (() => void)[];
}

/**
 * Follows every folder not paused: a first scan (or a reconcile after a restart, which is the same
 * walk: unchanged size and mtime cost one stat), then OS events through chokidar, or a periodic scan
 * where events cannot be had. Parley only reads the folders.
 */
export class FolderWatchers implements FolderWatchersPort {
  private readonly follows = new Map<string, Follow>();
  private closed = false;

  constructor(
    private readonly deps: SyncDeps & { dataDir: string; claims?: WorkClaims | undefined; notices?: NoticesPort | undefined },
    private readonly timing: FolderTiming = DEFAULT_FOLDER_TIMING,
  ) {
    // A request that reached another instance, about a folder this one follows.
    deps.notices?.on('folder.stop', (id) => void (this.follows.has(id) && this.stop(id)));
    deps.notices?.on('folder.start', (id) => this.follows.has(id) && this.start(id));
  }

  /** Parley's data directory: never followed, nor a folder holding it. */
  get dataDir(): string {
    return this.deps.dataDir;
  }

  /**
   * Start-up: every folder not paused that no live instance follows is reconciled and followed
   * again (one that failed is tried again). Every heartbeat (`adopting`): only those being followed,
   * by an instance now gone. A folder whose stored globs cannot be read is not followed (nothing of
   * it is scanned, so nothing it brought is removed) and says so; the others start, and so does Parley.
   */
  resume(adopting = false): void {
    for (const id of this.deps.repos.folders.ids()) {
      if (this.follows.has(id)) continue;
      try {
        const status = this.deps.repos.folders.get(id)?.status;
        if (adopting ? status === 'scanning' || status === 'watching' : status !== 'paused') this.start(id);
      } catch (error) {
        if (!isCorruptRecord(error)) throw error;
        this.deps.log.warn(`not following folder ${id}: ${error.message}`);
        this.deps.repos.folders.setStatus(id, 'error', { code: 'corrupt_record', detail: `${error.message} Remove the folder and follow it again.` });
      }
    }
  }

  private get claims(): WorkClaims {
    return this.deps.claims ?? ALONE;
  }

  /** Begins (or restarts) following a folder: scan, then watch. */
  start(folderId: string): void {
    if (this.closed) return;
    this.stopFollow(folderId);
    // Another live instance follows it: that one starts over (a reconcile, with the folder's new settings).
    if (!this.claims.claim(folderId)) return void this.deps.notices?.publish('folder.start', folderId);
    const folder = this.deps.repos.folders.get(folderId);
    if (!folder) return;
    const follow: Follow = { root: folder.path, watcher: null, poll: null, stopped: false, chains: new Map(), scanning: null, timers: new Set(), reading: 0, waiting: [] };
    this.follows.set(folderId, follow);
    this.deps.repos.folders.setStatus(folderId, 'scanning');
    follow.scanning = this.run(folderId, follow).catch((error: unknown) => this.fail(folderId, follow, 'scan_failed', `Scanning the folder failed: ${String(error)}`));
  }

  /**
   * Stops following a folder (pause, removal); what it brought stays unless the caller removes it.
   * Followed by another live instance: that one is told, and stops at once (not waited for).
   */
  stop(folderId: string): Promise<void> {
    const follow = this.follows.get(folderId);
    if (!follow && this.claims.heldElsewhere(folderId)) this.deps.notices?.publish('folder.stop', folderId);
    this.stopFollow(folderId);
    return follow ? this.settled(follow) : Promise.resolve();
  }

  /** Whether a folder is being followed now (its watcher or polling open). */
  following(folderId: string): boolean {
    return this.follows.has(folderId);
  }

  /** How often a folder the OS cannot watch is scanned, in seconds (shown on the folder). */
  get pollSeconds(): number {
    return this.timing.pollIntervalMs / 1000;
  }

  /** Resolves once the folder's scan and queued events are done (tests, shutdown). */
  async idle(folderId: string): Promise<void> {
    const follow = this.follows.get(folderId);
    if (follow) await this.settled(follow);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.follows.keys()].map((id) => this.stop(id)));
  }

  private async settled(follow: Follow): Promise<void> {
    await follow.scanning?.catch(() => undefined);
    await Promise.all([...follow.chains.values()]);
  }

  private stopFollow(folderId: string): void {
    const follow = this.follows.get(folderId);
    if (!follow) return;
    this.claims.release(folderId);
    follow.stopped = true;
    if (follow.poll) clearInterval(follow.poll);
    for (const timer of follow.timers) clearTimeout(timer);
    void follow.watcher?.close().catch(() => undefined);
    this.follows.delete(folderId);
  }

  private async run(folderId: string, follow: Follow): Promise<void> {
    // Watch first, then scan: a change made during the scan is caught by one or the other.
    if (this.timing.forcePolling) this.poll(folderId, follow, 'Following by a periodic scan (forced).');
    else this.watch(folderId, follow);
    await this.scan(folderId, follow);
    if (follow.stopped) return;
    const folder = this.deps.repos.folders.get(folderId);
    if (folder && folder.status === 'scanning') this.deps.repos.folders.setStatus(folderId, 'watching', folder.watch === 'polling' ? { code: 'polling', detail: folder.error_detail ?? '' } : null);
  }

  /** One pass over the folder: every admitted file synced, then artifacts whose file is gone removed. */
  private async scan(folderId: string, follow: Follow): Promise<void> {
    const folder = this.deps.repos.folders.get(folderId);
    if (!folder) return;
    if (!(await this.rootPresent(folderId, follow))) return;
    const admits = folderFilter(folder);
    const skipped = { count: 0, first: [] as { path: string; reason: string }[] };
    const running = new Set<Promise<void>>();
    const dataDir = await realpath(this.deps.dataDir).catch(() => this.deps.dataDir);
    for await (const key of walk({ root: follow.root, dataDir, stopped: () => follow.stopped })) {
      if (!admits(key)) continue;
      const task = this.onKey(folder, follow, key).then((outcome) => {
        if (outcome?.kind === 'skipped') {
          skipped.count++;
          if (skipped.first.length < SKIPPED_LISTED) skipped.first.push({ path: key, reason: outcome.reason });
        }
      });
      const tracked: Promise<void> = task.finally(() => running.delete(tracked));
      running.add(tracked);
      if (running.size >= SCAN_CONCURRENCY) await Promise.race(running);
    }
    await Promise.all(running);
    if (follow.stopped) return;
    // Files gone (or no longer admitted) since they were read, a page at a time.
    for (let after = 0; !follow.stopped; ) {
      const page = this.deps.repos.folders.artifactsAfter(folderId, after, 500);
      if (page.length === 0) break;
      after = page[page.length - 1]?.seq ?? after;
      for (const a of page) {
        const gone = !admits(a.source_path) || !(await stat(join(follow.root, ...a.source_path.split('/'))).then((s) => s.isFile(), () => false));
        if (gone) await this.chain(follow, a.source_path, () => removeArtifact(this.deps, a.id, a.sha256));
      }
    }
    this.deps.repos.folders.setScanned(folderId, this.deps.now().toISOString(), skipped);
  }

  /** Syncs one key in its chain; a file whose key an upload holds is listed as skipped. */
  private onKey(folder: FolderRecord, follow: Follow, key: string) {
    let outcome: Awaited<ReturnType<typeof syncFile>> | undefined;
    return this.chain(follow, key, async () => {
      if (follow.reading >= SCAN_CONCURRENCY) await new Promise<void>((resolve) => follow.waiting.push(resolve));
      follow.reading++;
      try {
        outcome = await syncFile(this.deps, folder, follow.root, key, folderFilter(folder));
      } catch (error) {
        if (!(error instanceof KeyTaken)) throw error;
        outcome = { kind: 'skipped', reason: 'an uploaded file of the dataset has this key' };
      } finally {
        follow.reading--;
        follow.waiting.shift()?.();
      }
    }).then(() => outcome);
  }

  private chain(follow: Follow, key: string, fn: () => Promise<void>): Promise<void> {
    const before = follow.chains.get(key) ?? Promise.resolve();
    const next = before
      .then(() => (follow.stopped ? undefined : fn()))
      .catch((error: unknown) => this.deps.log.warn(`following ${key} failed: ${String(error)}`))
      .finally(() => {
        if (follow.chains.get(key) === next) follow.chains.delete(key);
      });
    follow.chains.set(key, next);
    return next;
  }

  private watch(folderId: string, follow: Follow): void {
    const watcher = watch(follow.root, {
      ignoreInitial: true,
      followSymlinks: false,
      // Hidden entries are never followed; chokidar does not descend into them either.
      ignored: (path: string) => path !== follow.root && isHidden(toKey(relative(follow.root, path))),
      awaitWriteFinish: { stabilityThreshold: this.timing.stabilityMs, pollInterval: Math.max(10, Math.floor(this.timing.stabilityMs / 5)) },
    });
    follow.watcher = watcher;
    const onFile = (path: string) => {
      if (follow.stopped) return;
      const key = toKey(relative(follow.root, path));
      if (!key || key.startsWith('..')) return;
      const folder = this.deps.repos.folders.get(folderId);
      if (!folder) return this.stopFollow(folderId);
      if (folder.status === 'paused') return;
      void this.onKey(folder, follow, key);
    };
    watcher.on('add', onFile).on('change', onFile);
    // A rename arrives as unlink + add, the add only once the file holds still: the removal waits
    // that long and a little more, so the add finds the artifact and moves it instead of parsing again.
    watcher.on('unlink', (path: string) => {
      const timer = setTimeout(() => {
        follow.timers.delete(timer);
        onFile(path);
      }, this.timing.stabilityMs * 2 + 100);
      follow.timers.add(timer);
    });
    watcher.on('unlinkDir', (path: string) => {
      if (follow.stopped) return;
      if (path === follow.root || !within(follow.root, path)) return void this.rootPresent(folderId, follow);
      // Everything below a removed directory goes: the reconcile pass finds exactly what is gone.
      void this.rescan(folderId, follow);
    });
    watcher.on('error', (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (follow.stopped) return;
      if (code === 'ENOSPC' || code === 'EMFILE' || code === 'ENFILE' || code === 'EPERM') {
        this.poll(folderId, follow, `The system cannot watch this folder (${code}); it is scanned every ${Math.round(this.timing.pollIntervalMs / 1000)} s instead.`);
      } else {
        this.deps.log.warn(`watching ${follow.root} failed: ${String(error)}`);
        void this.rootPresent(folderId, follow);
      }
    });
  }

  /** The fallback: no OS events, a scan every `pollIntervalMs`, said so on the folder. */
  private poll(folderId: string, follow: Follow, why: string): void {
    void follow.watcher?.close().catch(() => undefined);
    follow.watcher = null;
    this.deps.repos.folders.setWatch(folderId, 'polling');
    const folder = this.deps.repos.folders.get(folderId);
    if (folder && folder.status !== 'error') this.deps.repos.folders.setStatus(folderId, folder.status, { code: 'polling', detail: why });
    if (follow.poll) clearInterval(follow.poll);
    follow.poll = setInterval(() => void this.rescan(folderId, follow), this.timing.pollIntervalMs);
    follow.poll.unref();
  }

  private rescan(folderId: string, follow: Follow): Promise<void> {
    if (follow.stopped) return Promise.resolve();
    const previous = follow.scanning ?? Promise.resolve();
    follow.scanning = previous.then(() => this.scan(folderId, follow)).catch((error: unknown) => this.deps.log.warn(`scanning ${follow.root} failed: ${String(error)}`));
    return follow.scanning;
  }

  /** False (and the folder in `error`, following stopped) once its directory is gone. */
  private async rootPresent(folderId: string, follow: Follow): Promise<boolean> {
    const ok = await stat(follow.root).then((s) => s.isDirectory(), () => false);
    if (!ok) this.fail(folderId, follow, 'folder_missing', `The folder ${follow.root} no longer exists or cannot be read; following it stopped (resume it once it is back, or remove it).`);
    return ok;
  }

  private fail(folderId: string, follow: Follow, code: string, detail: string): void {
    if (this.deps.repos.folders.get(folderId)) this.deps.repos.folders.setStatus(folderId, 'error', { code, detail });
    follow.stopped = true;
    if (follow.poll) clearInterval(follow.poll);
    for (const timer of follow.timers) clearTimeout(timer);
    void follow.watcher?.close().catch(() => undefined);
    if (this.follows.get(folderId) !== follow) return;
    this.follows.delete(folderId);
    this.claims.release(folderId);
  }
}
