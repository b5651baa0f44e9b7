import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { Config } from '../../../../shared/config.js';
import { discoverFiles, HeaderCache, type FoundFile } from './discovery.js';
import type { FolderEnv } from './folders.js';
import { LocalEngine } from './engine.js';
import { InProcessHost } from './host/in-process.js';
import type { ModelHost } from './host/types.js';
import { modelSize } from './split-models.js';
import type { LocalModelsPort } from '../../platform/ports/local-models.js';

export interface LocalModelsOptions {
  dataDir: string;
  config: () => Config;
  /** The local models' runtime; an engine given as it is runs in this process (unit tests, benches). */
  engine: ModelHost | LocalEngine;
  /** Paths of the GGUF files registered by path (`POST /models`), read from the database. */
  registeredPaths: () => string[];
  /** Home folder and OS the app folders are found under; tests build layouts in a temporary home. */
  env?: () => FolderEnv;
  /** The models shipped with the app (`process.resourcesPath/models`, or PARLEY_BUNDLED_MODELS_DIR). */
  bundledDir?: string | undefined;
  /** After each scan: what is found may change which embedding model `auto` picks. */
  onScan?: () => void;
}

/**
 * The local GGUF models Parley knows: what the last scan found (kept, so listing and routing stay
 * synchronous), plus the files registered by path. `refresh()` rescans; concurrent calls share one
 * scan, and headers are read once per file version.
 */
export class LocalModels implements LocalModelsPort {
  readonly engine: ModelHost;
  private found: FoundFile[] = [];
  private added = new Map<string, FoundFile | null>();
  private scanning: Promise<FoundFile[]> | null = null;
  private queued: Promise<FoundFile[]> | null = null;
  private readonly headers = new HeaderCache();

  constructor(private readonly options: LocalModelsOptions) {
    this.engine = options.engine instanceof LocalEngine ? new InProcessHost(options.engine) : options.engine;
  }

  private env(): FolderEnv {
    return (
      this.options.env?.() ?? {
        home: homedir(),
        platform: process.platform,
        ollamaModels: process.env.OLLAMA_MODELS,
        xdgDataHome: process.env.XDG_DATA_HOME,
        xdgConfigHome: process.env.XDG_CONFIG_HOME,
      }
    );
  }

  /** What the last scan found. */
  files(): FoundFile[] {
    return this.found;
  }

  /** A file registered by path, as its header reads (null until the first scan after it was added). */
  addedFile(path: string): FoundFile | null {
    return this.added.get(path) ?? null;
  }

  byId(id: string): FoundFile | undefined {
    return this.found.find((f) => f.id === id);
  }

  /** The file at `path`, found or added, as the last scan read it. */
  byPath(path: string): FoundFile | undefined {
    return this.found.find((f) => f.path === path) ?? this.added.get(path) ?? undefined;
  }

  /** Reads an added file now (right after `POST /models`), so it is listed before the next scan. */
  async add(path: string): Promise<FoundFile | null> {
    const file = await this.inspect(path);
    this.added.set(path, file);
    return file;
  }

  /**
   * Rescans the folders and re-reads changed headers. A call during a scan waits for a fresh one
   * (that scan may have passed a folder before a file arrived); calls meanwhile share it.
   */
  refresh(): Promise<FoundFile[]> {
    if (this.scanning) {
      this.queued ??= this.scanning
        .catch(() => [])
        .then(() => {
          this.queued = null;
          return this.refresh();
        });
      return this.queued;
    }
    this.scanning = this.scan().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scan(): Promise<FoundFile[]> {
    const found = await discoverFiles({
      dataDir: this.options.dataDir,
      searchPaths: this.options.config().local_models.search_paths,
      env: this.env(),
      headers: this.headers,
      bundledDir: this.options.bundledDir,
    });
    const added = new Map<string, FoundFile | null>();
    for (const path of this.options.registeredPaths()) added.set(path, await this.inspect(path));
    this.found = found;
    this.added = added;
    this.options.onScan?.();
    // The first time there is something to run, find out (in the background) whether llama.cpp can run here.
    if (found.length + added.size > 0) this.engine.probe().catch(() => {});
    return found;
  }

  /** Reads one file's header (for a file added by path); null when it does not exist. */
  async inspect(path: string): Promise<FoundFile | null> {
    let info;
    try {
      info = await stat(path);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    const { header, error } = await this.headers.read(path, info.size, info.mtimeMs);
    const { size, missing } = await modelSize(path, info.size);
    return { id: '', path, name: header?.name ?? path, size_bytes: size, modified_at: info.mtime.toISOString(), found_in: 'folder', header, error: error ?? missing };
  }
}
