import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../shared/errors.js';
import type { DownloadsOptions, DownloadView } from '../../../main/core/models/local/downloads/runner.js';
import { bootTestCore, startTestHttp, tempDir } from '../../support/core.js';
import { ggufBytes, sha256, startDownloadServer, type DownloadServer } from '../../fixtures/download-server.js';

const posix = process.platform !== 'win32';
const MiB = 1024 * 1024;

let files: DownloadServer;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  files = await startDownloadServer();
});
afterAll(async () => {
  await files.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A core over a data directory whose parley.toml holds `toml` (the download limits under test). */
function boot(toml: string, downloads: Pick<DownloadsOptions, 'freeBytes' | 'backoffMs'> = {}) {
  const data = tempDir();
  cleanups.push(data.remove);
  writeFileSync(join(data.dir, 'parley.toml'), `[local_models]\n${toml}\n`);
  const core = bootTestCore({ dataDir: data.dir, downloads });
  cleanups.push(core.remove);
  const partsDir = join(data.dir, 'downloads');
  const part = (id: string) => join(partsDir, `${id}.part`);
  /** Bytes the download folder holds now: what a free-space stub takes away. */
  const written = () => (existsSync(partsDir) ? readdirSync(partsDir).reduce((sum, f) => sum + statSync(join(partsDir, f)).size, 0) : 0);
  return { downloads: core.runtime.downloads, dataDir: data.dir, part, written };
}

const settled = (get: () => DownloadView) =>
  vi.waitFor(() => {
    const d = get();
    if (!['complete', 'failed', 'cancelled'].includes(d.status)) throw new Error(`still ${d.status}`);
    return d;
  });

describe('the size of a download', () => {
  it('with no size stated stops at max_download_gb, its bytes removed', async () => {
    const { downloads, dataDir, part } = boot('max_download_gb = 0.0005'); // 524 KB
    const url = files.add('/limits/unsized.gguf', { bytes: ggufBytes(800_000), noLength: true });
    const { id } = downloads.start({ url }, null);
    const d = await settled(() => downloads.get(id));
    expect(d).toMatchObject({ status: 'failed', bytes_total: null });
    expect(d.error).toMatch(/^Too large: the server sent more than the 524 KB a download may be \(\[local_models\] max_download_gb\)/);
    expect(existsSync(part(id))).toBe(false);
    expect(existsSync(join(dataDir, 'models', 'unsized.gguf'))).toBe(false);
  });

  it('stated above max_download_gb is refused before a byte is written', async () => {
    const { downloads, part } = boot('max_download_gb = 0.0005');
    const { id } = downloads.start({ url: files.add('/limits/stated-big.gguf', { bytes: ggufBytes(800_000) }) }, null);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Too large: the server states the file is 781 KB, more than the 524 KB a download may be/);
    expect(existsSync(part(id))).toBe(false);
  });

  it('that lies, sending more than it stated, fails as a size mismatch with no byte past the stated size written', async () => {
    const { downloads, part } = boot('');
    const bytes = ggufBytes(600_000);
    // Hugging Face's layout: the redirect states the size; the CDN's answer states none and sends more.
    const url = files.add('/limits/more.gguf', { bytes, linkedSha256: sha256(bytes), noLength: true, statedSize: 300_000 });
    const { id } = downloads.start({ url }, null);
    const d = await settled(() => downloads.get(id));
    expect(d).toMatchObject({ status: 'failed', bytes_total: 300_000 });
    expect(d.error).toMatch(/^Size mismatch: the server stated the file is 300000 bytes but sent more; the download was stopped and its bytes removed\.$/);
    expect(existsSync(part(id))).toBe(false);
  });

  it('that lies, stating more than it has, fails as a size mismatch once the file is seen to end short', async () => {
    const { downloads, part } = boot('', { backoffMs: () => 0 });
    const url = files.add('/limits/fewer.gguf', { bytes: ggufBytes(600_000), statedSize: 900_000 });
    const { id } = downloads.start({ url }, null);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Size mismatch: the server stated the file is 900000 bytes but it ends after 600000/);
    // Then it resumed where its bytes ended: at 600000, or earlier when the cut connection lost
    // bytes that had arrived but were not yet read (fetch drops a body's queue when it errors) —
    // the answer to that resumed request states the true size, which is the same mismatch.
    const ranges = files.requests.filter((r) => r.path === '/limits/fewer.gguf').map((r) => r.range);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBeNull();
    expect(Number(/^bytes=(\d+)-$/.exec(ranges[1] ?? '')?.[1])).toBeLessThanOrEqual(600_000);
    expect(existsSync(part(id))).toBe(false);
  });
});

describe('the free-space reserve', () => {
  const reserve = Math.floor(0.001 * 1024 ** 3); // download_reserve_gb = 0.001

  it('refuses a download whose stated size would eat into it, before a byte is written', async () => {
    const { downloads, part } = boot('download_reserve_gb = 0.001', { freeBytes: () => Promise.resolve(reserve + 300_000) });
    const { id } = downloads.start({ url: files.add('/reserve/stated.gguf', { bytes: ggufBytes(600_000) }) }, null);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Not enough disk space: the model needs 586 KB more and 1.0 MB must stay free \(\[local_models\] download_reserve_gb\), but only 1.3 MB are free/);
    expect(existsSync(part(id))).toBe(false);
  });

  it('stops a download that states no size when the disk nears it, keeping its bytes', async () => {
    const { downloads, part, written } = boot('download_reserve_gb = 0.001', { freeBytes: () => Promise.resolve(reserve + 2.5 * MiB - written()) });
    const url = files.add('/reserve/unsized.gguf', { bytes: ggufBytes(5 * MiB), noLength: true });
    const { id } = downloads.start({ url }, null);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Not enough disk space: the download would leave less than 1.0 MB free \(\[local_models\] download_reserve_gb\)/);
    expect(d.error).toMatch(/downloaded so far are kept/);
    // Checked every MiB written: it stopped within one of the reserve, not at the end of the file.
    const kept = statSync(part(id)).size;
    expect(kept).toBeGreaterThan(2 * MiB);
    expect(kept).toBeLessThanOrEqual(3.5 * MiB);
  });
});

describe('download URLs with credentials', () => {
  it('are refused with 400 invalid_argument naming url, never stored, echoed or followed', async () => {
    const { downloads } = boot('');
    const url = `http://someone:hunter2secret@127.0.0.1:${new URL(files.url).port}/creds/model.gguf`;
    let thrown: unknown;
    try {
      downloads.start({ url }, null);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({ code: 'invalid_argument', errors: [{ path: 'url' }] });
    expect(JSON.stringify((thrown as ServiceError).toPayload())).not.toMatch(/hunter2|someone/);
    expect(downloads.list()).toEqual([]);
    expect(files.requests.filter((r) => r.path === '/creds/model.gguf')).toEqual([]);

    const h = await startTestHttp();
    cleanups.push(h.close);
    const res = await h.api('/models/downloads', { method: 'POST', body: JSON.stringify({ url: `${url}?x=1` }) });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|someone/);
    expect(JSON.parse(text)).toMatchObject({ code: 'invalid_argument', errors: [{ path: 'url' }] });
    expect(((await (await h.api('/models/downloads')).json()) as { data: unknown[] }).data).toEqual([]);

    // A row stored with credentials before they were refused: not resumed, and listed without them.
    h.core.repos.modelDownloads.insert({ id: 'dl_legacy', url, file_name: 'model.gguf', sha256_expected: null, sha256_source: null, created_by: null, now: new Date().toISOString() });
    expect(h.core.runtime.downloads.resume()).toBe(0);
    const listed = await (await h.api('/models/downloads')).text();
    expect(listed).not.toMatch(/hunter2|someone/);
    expect(JSON.parse(listed)).toMatchObject({ data: [{ id: 'dl_legacy', status: 'failed', url: `http://127.0.0.1:${new URL(files.url).port}/creds/model.gguf`, error: expect.stringMatching(/user name or password/) as unknown }] });
    expect(files.requests.filter((r) => r.path === '/creds/model.gguf')).toEqual([]);
  });
});

describe.runIf(posix)('the files downloads create', () => {
  it('are 0600 in a 0700 folder, the installed model too', async () => {
    const { downloads, dataDir, part, written } = boot('download_reserve_gb = 0.0005', { freeBytes: () => Promise.resolve(1.5 * MiB - written()) });
    const kept = downloads.start({ url: files.add('/modes/big.gguf', { bytes: ggufBytes(3 * MiB), noLength: true }) }, null);
    expect(await settled(() => downloads.get(kept.id))).toMatchObject({ status: 'failed' }); // no room: its part file stays
    expect(statSync(part(kept.id)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'downloads')).mode & 0o777).toBe(0o700);

    const other = boot('');
    const bytes = ggufBytes(100_000);
    const done = other.downloads.start({ url: files.add('/modes/small.gguf', { bytes }) }, null);
    expect(await settled(() => other.downloads.get(done.id))).toMatchObject({ status: 'complete' });
    expect(statSync(join(other.dataDir, 'models', 'small.gguf')).mode & 0o777).toBe(0o600);
  });

  it('left readable by an earlier version are tightened at start-up', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const dir = join(data.dir, 'downloads');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'dl_old.part'), 'GGUF');
    chmodSync(join(dir, 'dl_old.part'), 0o644);
    const core = bootTestCore({ dataDir: data.dir });
    cleanups.push(core.remove);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'dl_old.part')).mode & 0o777).toBe(0o600);
  });
});
