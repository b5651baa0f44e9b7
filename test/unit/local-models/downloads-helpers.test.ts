import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileNameFor, installFile } from '../../../main/core/models/local/downloads/files.js';
import { parseContentRange, sha256FromEtag, unsatisfiedRangeTotal } from '../../../main/core/models/local/downloads/http.js';
import { RECOMMENDED, catalogFor, ramNeeded } from '../../../main/core/models/local/downloads/recommended.js';
import { tempDir } from '../../support/core.js';
import { sha256 } from '../../fixtures/download-server.js';

const dirs: Array<() => void> = [];
afterEach(() => dirs.splice(0).forEach((remove) => remove()));

describe('download helpers', () => {
  it('reads a SHA-256 from X-Linked-Etag / ETag values, and nothing else', () => {
    const hex = 'ab'.repeat(32);
    expect(sha256FromEtag(`"${hex}"`)).toBe(hex);
    expect(sha256FromEtag(`W/"${hex.toUpperCase()}"`)).toBe(hex);
    expect(sha256FromEtag('"d41d8cd98f00b204e9800998ecf8427e"')).toBeNull(); // an MD5
    expect(sha256FromEtag(null)).toBeNull();
  });

  it('parses Content-Range of a 206 and of a 416', () => {
    expect(parseContentRange('bytes 100-199/2000')).toEqual({ start: 100, total: 2000 });
    expect(parseContentRange('bytes 100-199/*')).toEqual({ start: 100, total: null });
    expect(parseContentRange('items 1-2/3')).toBeNull();
    expect(unsatisfiedRangeTotal('bytes */2000')).toBe(2000);
  });

  it('names the file after the one asked for or the URL, always a plain .gguf name', () => {
    expect(fileNameFor('https://h.co/r/resolve/main/Model-Q4_K_M.gguf?download=true', undefined, 'x')).toBe('Model-Q4_K_M.gguf');
    expect(fileNameFor('https://h.co/a/b/my%20model.bin', undefined, 'x')).toBe('my model.bin.gguf');
    expect(fileNameFor('https://h.co/', undefined, 'model-dl_1')).toBe('model-dl_1.gguf');
    expect(fileNameFor('https://h.co/..%2F..%2Fetc', undefined, 'x')).toBe('etc.gguf');
    expect(fileNameFor('https://h.co/x.gguf', 'Mine', 'x')).toBe('Mine.gguf');
  });

  it('installs without replacing a different file, and keeps an identical one', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const models = join(t.dir, 'models');
    mkdirSync(models);
    writeFileSync(join(models, 'm.gguf'), 'GGUF old');
    writeFileSync(join(t.dir, 'a.part'), 'GGUF new');
    expect(await installFile(join(t.dir, 'a.part'), models, 'm.gguf', sha256(Buffer.from('GGUF new')))).toEqual({ fileName: 'm (2).gguf', alreadyThere: false });
    expect(readFileSync(join(models, 'm.gguf'), 'utf8')).toBe('GGUF old');
    writeFileSync(join(t.dir, 'b.part'), 'GGUF old');
    expect(await installFile(join(t.dir, 'b.part'), models, 'm.gguf', sha256(Buffer.from('GGUF old')))).toEqual({ fileName: 'm.gguf', alreadyThere: true });
  });
});

describe('the catalogue', () => {
  it('marks the models whose memory needs exceed the machine’s', () => {
    const t = tempDir();
    dirs.push(t.remove);
    const small = catalogFor(2 * 1024 ** 3, t.dir);
    expect(small.find((m) => m.id === 'qwen2.5-0.5b-instruct')?.fits).toBe(true);
    expect(small.find((m) => m.id === 'llama-3.1-8b-instruct')?.fits).toBe(false);
    expect(catalogFor(64 * 1024 ** 3, t.dir).every((m) => m.fits)).toBe(true);
    for (const m of RECOMMENDED) expect(small.find((c) => c.id === m.id)?.ram_bytes).toBe(ramNeeded(m));
  });

  it('holds chat models from about 0.5B to 8B parameters and two embedding models, the small MiniLM first, all GGUF on Hugging Face', () => {
    expect(RECOMMENDED.filter((m) => m.kind === 'embedding')).toHaveLength(2);
    // A run from source offers the embedder first: hybrid search needs it from the first launch.
    expect(RECOMMENDED[0]).toMatchObject({ kind: 'embedding', name: expect.stringMatching(/MiniLM/) });
    expect(RECOMMENDED.map((m) => m.parameters)).toEqual(expect.arrayContaining(['0.5B', '8B']));
    for (const m of RECOMMENDED) expect(m.url).toMatch(/^https:\/\/huggingface\.co\/[^/]+\/[^/]+\/resolve\/main\/[^/]+\.gguf$/);
  });
});
