import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverFiles, HeaderCache } from '../../../main/core/local-models/discovery.js';
import { appFolders, expandSearchPath } from '../../../main/core/local-models/folders.js';
import { GgufError, readGgufHeader } from '../../../main/core/local-models/gguf-header.js';
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
