import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverFiles, HeaderCache } from '../../../main/core/models/local/discovery.js';
import { appFolders, expandSearchPath, type FolderEnv } from '../../../main/core/models/local/folders.js';
import { GgufError, readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { makeGguf } from '../../fixtures/gguf.js';

const root = mkdtempSync(join(tmpdir(), 'parley-discovery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(path: string, bytes: Buffer | string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, bytes);
}

describe('GGUF header', () => {
  it('reads name, architecture, quantisation, context length and purpose without the weights', async () => {
    const path = join(root, 'h', 'chat.gguf');
    put(path, makeGguf({ name: 'Header Chat', contextLength: 4096 }));
    expect(await readGgufHeader(path)).toMatchObject({ version: 3, architecture: 'llama', name: 'Header Chat', quantization: 'F32', context_length: 4096, pooling: false });
    const embed = join(root, 'h', 'embed.gguf');
    put(embed, makeGguf({ kind: 'embedding' }));
    expect((await readGgufHeader(embed)).pooling).toBe(true);
  });

  it('refuses what is not GGUF, truncated or corrupt, saying so', async () => {
    const cases: [string, Buffer | string, RegExp][] = [
      ['text.gguf', 'hello, not a model', /not a GGUF model/],
      ['empty.gguf', '', /not a GGUF model/],
      ['truncated.gguf', makeGguf().subarray(0, 2000), /truncated or corrupt/],
      ['v9.gguf', Buffer.concat([Buffer.from('GGUF'), Buffer.from([9, 0, 0, 0])]), /version 9/],
    ];
    for (const [name, bytes, message] of cases) {
      put(join(root, 'bad', name), bytes);
      await expect(readGgufHeader(join(root, 'bad', name))).rejects.toSatisfy((e) => e instanceof GgufError && message.test(e.message));
    }
  });
});

describe('model folders', () => {
  it('knows where LM Studio, Jan, GPT4All and Ollama keep models on each OS', () => {
    expect(appFolders('gpt4all', { home: '/h', platform: 'darwin' })).toEqual(['/h/Library/Application Support/nomic.ai/GPT4All']);
    expect(appFolders('gpt4all', { home: '/h', platform: 'linux' })).toEqual(['/h/.local/share/nomic.ai/GPT4All']);
    expect(appFolders('jan', { home: '/h', platform: 'linux' })).toContain('/h/.local/share/Jan/data/llamacpp/models');
    expect(appFolders('lm_studio', { home: '/h', platform: 'linux' })).toEqual(['/h/.lmstudio/models', '/h/.cache/lm-studio/models']);
    expect(appFolders('ollama', { home: '/h', platform: 'darwin', ollamaModels: '/big/ollama' })).toEqual(['/big/ollama']);
    expect(expandSearchPath('~/models', { home: '/h', platform: 'linux' })).toEqual([{ folder: '/h/models', app: null }]);
    expect(expandSearchPath('@unknown', { home: '/h', platform: 'linux' })).toEqual([]);
  });

  it('finds GGUF files recursively (first shard of split models only), resolves Ollama manifests, copies nothing', async () => {
    const home = join(root, 'home');
    const data = join(root, 'data');
    put(join(data, 'models', 'a.gguf'), makeGguf({ name: 'A' }));
    put(join(data, 'models', 'notes.txt'), 'not a model');
    put(join(home, 'extra', 'deep', 'split-00001-of-00002.gguf'), makeGguf({ name: 'Split' }));
    put(join(home, 'extra', 'deep', 'split-00002-of-00002.gguf'), 'second shard');
    const digest = 'c'.repeat(64);
    put(join(home, '.ollama', 'models', 'blobs', `sha256-${digest}`), makeGguf({ name: 'O' }));
    put(join(home, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'someone', 'model', '7b'), JSON.stringify({ layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${digest}` }] }));
    put(join(home, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'library', 'broken', 'latest'), '{ not json');
    const found = await discoverFiles({ dataDir: data, searchPaths: ['~/extra', '@ollama'], env: { home, platform: 'linux' }, headers: new HeaderCache() });
    expect(found.map((f) => [f.name, f.found_in]).sort()).toEqual([
      ['A', 'data_dir'],
      ['Split', 'folder'],
      ['someone/model:7b', 'ollama'],
    ]);
    expect(found.find((f) => f.found_in === 'ollama')?.path).toBe(join(home, '.ollama', 'models', 'blobs', `sha256-${digest}`));
  });
});

/** A fresh home and data folder per case, so each sees only the layout it builds. */
function machine(name: string) {
  const home = join(root, name, 'home');
  const data = join(root, name, 'data');
  mkdirSync(home, { recursive: true });
  const env: FolderEnv = { home, platform: 'linux' };
  const scan = (searchPaths: string[]) => discoverFiles({ dataDir: data, searchPaths, env, headers: new HeaderCache() });
  return { home, data, scan };
}

describe("Jan's data folders", () => {
  it('are those of Jan 0.6 (Tauri), 0.5 (Electron) and 0.4 on each OS, new and old layouts', () => {
    const linux = appFolders('jan', { home: '/h', platform: 'linux' });
    for (const folder of [
      '/h/.local/share/Jan/data/llamacpp/models',
      '/h/.local/share/Jan/data/models',
      '/h/.config/Jan/data/llamacpp/models',
      '/h/.config/Jan/data/models',
      '/h/jan/models',
    ]) {
      expect(linux).toContain(folder);
    }
    expect(appFolders('jan', { home: '/h', platform: 'linux', xdgConfigHome: '/cfg', xdgDataHome: '/dat' })).toEqual(
      expect.arrayContaining(['/cfg/Jan/data/models', '/dat/Jan/data/llamacpp/models']),
    );
    expect(appFolders('jan', { home: '/h', platform: 'darwin' })).toEqual(
      expect.arrayContaining(['/h/Library/Application Support/Jan/data/llamacpp/models', '/h/Library/Application Support/Jan/data/models']),
    );
    expect(appFolders('jan', { home: '/h', platform: 'win32' })).toEqual(
      expect.arrayContaining([join('/h', 'AppData', 'Roaming', 'Jan', 'data', 'llamacpp', 'models'), join('/h', 'AppData', 'Roaming', 'Jan', 'data', 'models')]),
    );
  });

  it("finds models in each layout on Linux, and in a data folder moved in Jan's settings", async () => {
    const { home, scan } = machine('jan');
    // Jan 0.5 (Electron): ~/.config/Jan/data/models/<id>/<file>.gguf beside model.json.
    put(join(home, '.config', 'Jan', 'data', 'models', 'tinyllama-1.1b', 'tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf'), makeGguf({ name: 'Jan Electron' }));
    put(join(home, '.config', 'Jan', 'data', 'models', 'tinyllama-1.1b', 'model.json'), '{}');
    // Jan 0.6 (Tauri): <data>/llamacpp/models/<org>/<repo>/model.gguf; a header without a name is named by its folder.
    put(join(home, '.local', 'share', 'Jan', 'data', 'llamacpp', 'models', 'Qwen', 'Qwen3-0.6B-GGUF', 'model.gguf'), makeGguf({ name: '' }));
    put(join(home, '.local', 'share', 'Jan', 'data', 'llamacpp', 'models', 'Qwen', 'Qwen3-0.6B-GGUF', 'model.yml'), 'model_path: llamacpp/models/Qwen/Qwen3-0.6B-GGUF/model.gguf\n');
    // Moved to another disk in Jan's settings.
    const moved = join(root, 'jan', 'big-disk', 'jan-data');
    put(join(moved, 'llamacpp', 'models', 'moved', 'model.gguf'), makeGguf({ name: 'Jan Moved' }));
    put(join(home, '.config', 'Jan', 'settings.json'), JSON.stringify({ data_folder: moved, quick_ask: false }));
    const found = await scan(['@jan']);
    expect(found.map((f) => [f.name, f.found_in]).sort()).toEqual([
      ['Jan Electron', 'jan'],
      ['Jan Moved', 'jan'],
      ['Qwen3-0.6B-GGUF', 'jan'],
    ]);
  });
});

describe('symlinked model folders', () => {
  it('are followed once, through loops, and a file reached twice is listed once', async () => {
    const { home, scan } = machine('links');
    const disk = join(root, 'links', 'disk');
    put(join(disk, 'models', 'far.gguf'), makeGguf({ name: 'Far' }));
    const links = join(home, 'links');
    mkdirSync(links);
    // Links to itself: walked through each, the folder would be read 8^6 times (far past the scan's
    // entry budget) and its model found under a path of links, if at all. Made before the models,
    // so a walk that follows them meets them first (small folders list in the order of creation, or by name).
    for (let i = 0; i < 8; i++) symlinkSync(links, join(links, `0-self-${i}`), 'dir');
    symlinkSync('..', join(links, 'up'), 'dir'); // a link to an ancestor
    mkdirSync(join(links, 'a'));
    mkdirSync(join(links, 'b'));
    symlinkSync(join(links, 'b'), join(links, 'a', 'to-b'), 'dir'); // a → b → a
    symlinkSync(join(links, 'a'), join(links, 'b', 'to-a'), 'dir');
    symlinkSync(join(links, 'gone'), join(links, 'dangling'), 'dir');
    // A folder reached only through a link.
    put(join(root, 'links', 'other-disk', 'llm', 'linked.gguf'), makeGguf({ name: 'Linked' }));
    symlinkSync(join(root, 'links', 'other-disk'), join(links, 'on-other-disk'), 'dir');
    symlinkSync(join(disk, 'models'), join(links, 'on-disk'), 'dir');
    symlinkSync(join(disk, 'models', 'far.gguf'), join(links, 'far-alias.gguf')); // the same file by a file link
    put(join(links, 'near.gguf'), makeGguf({ name: 'Near' }));
    // The disk folder is also configured by itself: its file is still listed once.
    const found = await scan(['~/links', disk]);
    expect(found.map((f) => f.name).sort()).toEqual(['Far', 'Linked', 'Near']);
    expect(found.find((f) => f.name === 'Near')?.path).toBe(join(links, 'near.gguf'));
    // Listed where it was first found, under the path the user knows.
    expect(found.find((f) => f.name === 'Linked')?.path).toBe(join(links, 'on-other-disk', 'llm', 'linked.gguf'));
  });
});

describe('split models', () => {
  it('are listed once, by the first shard, with the size of all shards', async () => {
    const { data, scan } = machine('split');
    const first = makeGguf({ name: 'Big Split' });
    put(join(data, 'models', 'big-Q4_K_M-00001-of-00003.gguf'), first);
    put(join(data, 'models', 'big-Q4_K_M-00002-of-00003.gguf'), Buffer.alloc(5000));
    put(join(data, 'models', 'big-Q4_K_M-00003-of-00003.gguf'), Buffer.alloc(700));
    const found = await scan([]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'Big Split', path: join(data, 'models', 'big-Q4_K_M-00001-of-00003.gguf'), size_bytes: first.length + 5700, error: null });
  });

  it('say which shard is missing when one is', async () => {
    const { data, scan } = machine('split-missing');
    put(join(data, 'models', 'half-00001-of-00002.gguf'), makeGguf({ name: 'Half' }));
    const [file] = await scan([]);
    expect(file?.error).toMatch(/part 2 of 2 \(half-00002-of-00002\.gguf\) is missing/);
  });
});

describe('names of listed models', () => {
  it('tell quantisations apart, by the file name or else the header, and leave unique names alone', async () => {
    const { home, scan } = machine('quants');
    const lm = join(home, '.lmstudio', 'models', 'lmstudio-community', 'Qwen-Tiny-GGUF');
    put(join(lm, 'Qwen-Tiny-Q4_K_M.gguf'), makeGguf({ name: 'Qwen Tiny' }));
    put(join(lm, 'Qwen-Tiny-Q8_0.gguf'), makeGguf({ name: 'Qwen Tiny' }));
    // Jan names every file model.gguf: only the header's file type tells them apart.
    const jan = join(home, '.local', 'share', 'Jan', 'data', 'llamacpp', 'models');
    put(join(jan, 'smol-q4', 'model.gguf'), makeGguf({ name: 'Smol', fileType: 15 }));
    put(join(jan, 'smol-q8', 'model.gguf'), makeGguf({ name: 'Smol', fileType: 7 }));
    put(join(home, '.lmstudio', 'models', 'solo.gguf'), makeGguf({ name: 'Solo' }));
    const found = await scan(['@lm_studio', '@jan']);
    expect(found.map((f) => f.name).sort()).toEqual(['Qwen Tiny Q4_K_M', 'Qwen Tiny Q8_0', 'Smol Q4_K_M', 'Smol Q8_0', 'Solo']);
  });

  it('tell different files of one name and quantisation apart by their folders, or file names in one folder', async () => {
    const { home, data, scan } = machine('dupes');
    put(join(home, '.lmstudio', 'models', 'bartowski', 'Phi-GGUF', 'phi-Q4_K_M.gguf'), makeGguf({ name: 'Phi', contextLength: 1024 }));
    put(join(home, '.lmstudio', 'models', 'unsloth', 'Phi-GGUF', 'phi-Q4_K_M.gguf'), makeGguf({ name: 'Phi', contextLength: 2048 }));
    put(join(data, 'models', 'phi.gguf'), makeGguf({ name: 'Phi', contextLength: 4096 }));
    put(join(data, 'models', 'phi-copy.gguf'), makeGguf({ name: 'Phi', contextLength: 512 }));
    const found = await scan(['@lm_studio']);
    // The quantisation first (these differ: F32 and Q4_K_M), then the fewest folders that differ, or
    // the file name for files side by side.
    expect(found.map((f) => f.name).sort()).toEqual(['Phi F32 (phi)', 'Phi F32 (phi-copy)', 'Phi Q4_K_M (bartowski/Phi-GGUF)', 'Phi Q4_K_M (unsloth/Phi-GGUF)']);
  });
});
