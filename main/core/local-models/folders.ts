import { join } from 'node:path';

/**
 * Where desktop apps keep their models, per OS, relative to the home folder (injectable, so tests
 * build these layouts in a temporary home). Folders that do not exist are skipped by the scan.
 */
export type AppFolder = 'lm_studio' | 'jan' | 'gpt4all' | 'ollama';

export interface FolderEnv {
  home: string;
  platform: NodeJS.Platform;
  /** `OLLAMA_MODELS` moves Ollama's store. */
  ollamaModels?: string | undefined;
}

export function appFolders(app: AppFolder, env: FolderEnv): string[] {
  const { home, platform } = env;
  const appData = platform === 'win32' ? join(home, 'AppData', 'Roaming') : platform === 'darwin' ? join(home, 'Library', 'Application Support') : join(home, '.local', 'share');
  const localAppData = platform === 'win32' ? join(home, 'AppData', 'Local') : appData;
  switch (app) {
    case 'lm_studio':
      // 0.3+ keeps models in ~/.lmstudio/models; earlier versions in ~/.cache/lm-studio/models.
      return [join(home, '.lmstudio', 'models'), join(home, '.cache', 'lm-studio', 'models')];
    case 'jan':
      // Jan 0.6+ (llama.cpp engine) under its data folder; earlier versions in ~/jan/models.
      return [join(appData, 'Jan', 'data', 'llamacpp', 'models'), join(home, 'jan', 'models')];
    case 'gpt4all':
      return [join(localAppData, 'nomic.ai', 'GPT4All')];
    case 'ollama':
      return env.ollamaModels ? [env.ollamaModels] : [join(home, '.ollama', 'models'), ...(platform === 'linux' ? ['/usr/share/ollama/.ollama/models'] : [])];
  }
}

/** One entry of `[local_models] search_paths` → the folders it stands for, and which app's they are. */
export function expandSearchPath(entry: string, env: FolderEnv): { folder: string; app: AppFolder | null }[] {
  const app = /^@(lm_studio|jan|gpt4all|ollama)$/.exec(entry)?.[1] as AppFolder | undefined;
  if (app) return appFolders(app, env).map((folder) => ({ folder, app }));
  if (entry.startsWith('@')) return [];
  const folder = entry === '~' ? env.home : entry.startsWith('~/') || entry.startsWith('~\\') ? join(env.home, entry.slice(2)) : entry;
  return [{ folder, app: null }];
}
