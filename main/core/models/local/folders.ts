import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { AppFolder } from '../../platform/ports/local-models.js';

export type { AppFolder };

export interface FolderEnv {
  home: string;
  platform: NodeJS.Platform;
  /** `OLLAMA_MODELS` moves Ollama's store. */
  ollamaModels?: string | undefined;
  /** `XDG_DATA_HOME` and `XDG_CONFIG_HOME` move Linux apps' data and config folders. */
  xdgDataHome?: string | undefined;
  xdgConfigHome?: string | undefined;
}

/** The OS folders apps keep their data and their settings in (the same on macOS and Windows). */
function osFolders(env: FolderEnv): { data: string; config: string; localData: string } {
  const { home, platform } = env;
  if (platform === 'win32') return { data: join(home, 'AppData', 'Roaming'), config: join(home, 'AppData', 'Roaming'), localData: join(home, 'AppData', 'Local') };
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support');
    return { data: support, config: support, localData: support };
  }
  const xdg = (value: string | undefined, fallback: string) => (value && isAbsolute(value) ? value : fallback);
  const data = xdg(env.xdgDataHome, join(home, '.local', 'share'));
  return { data, config: xdg(env.xdgConfigHome, join(home, '.config')), localData: data };
}

/**
 * Jan's default data folders, newest first: Jan 0.6+ (Tauri) keeps it in the OS data folder
 * (`~/.local/share/Jan/data` on Linux), Jan 0.5 (Electron) in the config folder (`~/.config/Jan/data`
 * on Linux; the same folder as 0.6 on macOS and Windows), Jan 0.4 in `~/jan`.
 */
function janDataFolders(env: FolderEnv): string[] {
  const { data, config } = osFolders(env);
  return [...new Set([join(data, 'Jan', 'data'), join(config, 'Jan', 'data'), join(env.home, 'jan')])];
}

/** Under a Jan data folder: `llamacpp/models/<id>/model.gguf` (0.6+), `models/<id>/<file>.gguf` (before). */
const janModelFolders = (dataFolder: string) => [join(dataFolder, 'llamacpp', 'models'), join(dataFolder, 'models')];

export function appFolders(app: AppFolder, env: FolderEnv): string[] {
  const { home, platform } = env;
  switch (app) {
    case 'lm_studio':
      // 0.3+ keeps models in ~/.lmstudio/models; earlier versions in ~/.cache/lm-studio/models.
      return [join(home, '.lmstudio', 'models'), join(home, '.cache', 'lm-studio', 'models')];
    case 'jan':
      return janDataFolders(env).flatMap(janModelFolders);
    case 'gpt4all':
      return [join(osFolders(env).localData, 'nomic.ai', 'GPT4All')];
    case 'ollama':
      return env.ollamaModels ? [env.ollamaModels] : [join(home, '.ollama', 'models'), ...(platform === 'linux' ? ['/usr/share/ollama/.ollama/models'] : [])];
  }
}

/** No settings file of Jan's is this large; a larger one is not read. */
const MAX_SETTINGS_BYTES = 1 << 20;

/**
 * A data folder the user moved in Jan's settings: Jan records it as `data_folder` in a
 * `settings.json` beside its default data folder (or in its bundle-id folder, `jan.ai.app`).
 */
export async function janMovedDataFolders(env: FolderEnv): Promise<string[]> {
  const { data, config } = osFolders(env);
  const files = [...new Set([join(config, 'Jan', 'settings.json'), join(data, 'Jan', 'settings.json'), join(data, 'jan.ai.app', 'settings.json')])];
  const out: string[] = [];
  for (const file of files) {
    try {
      if ((await stat(file)).size > MAX_SETTINGS_BYTES) continue;
      const folder = (JSON.parse(await readFile(file, 'utf8')) as { data_folder?: unknown }).data_folder;
      if (typeof folder === 'string' && isAbsolute(folder)) out.push(folder);
    } catch {
      // No such file, or not Jan's settings as we know them: the default folders still count.
    }
  }
  return out;
}

/** One entry of `[local_models] search_paths` → the folders it stands for, and which app's they are. */
export function expandSearchPath(entry: string, env: FolderEnv): { folder: string; app: AppFolder | null }[] {
  const app = /^@(lm_studio|jan|gpt4all|ollama)$/.exec(entry)?.[1] as AppFolder | undefined;
  if (app) return appFolders(app, env).map((folder) => ({ folder, app }));
  if (entry.startsWith('@')) return [];
  const folder = entry === '~' ? env.home : entry.startsWith('~/') || entry.startsWith('~\\') ? join(env.home, entry.slice(2)) : entry;
  return [{ folder, app: null }];
}

/** `expandSearchPath`, plus the folders only a file on disk says (Jan's moved data folder). */
export async function searchFolders(entry: string, env: FolderEnv): Promise<{ folder: string; app: AppFolder | null }[]> {
  const folders = expandSearchPath(entry, env);
  if (entry !== '@jan') return folders;
  const moved = (await janMovedDataFolders(env)).flatMap(janModelFolders).filter((f) => !folders.some((known) => known.folder === f));
  return [...folders, ...moved.map((folder) => ({ folder, app: 'jan' as const }))];
}
