import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DownloadsOptions, DownloadView } from '../../../main/core/models/local/downloads/runner.js';
import type { DownloadTimers } from '../../../main/core/models/local/downloads/timing.js';
import { hostAnswers } from '../../../main/core/models/local/downloads/files.js';
import { bootTestCore, tempDir } from '../../support/core.js';
import { ggufBytes, sha256, startDownloadServer, type DownloadServer } from '../../fixtures/download-server.js';

/** Timers that move only when the test says: no test here waits on the clock. */
class HandTimers implements DownloadTimers {
  private time = 0;
  private next = 0;
  private readonly pending = new Map<number, { at: number; ms: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const id = this.next++;
    this.pending.set(id, { at: this.time + ms, ms, fn });
    return () => this.pending.delete(id);
  }

  /** The delays of the timers set and not yet fired. */
  waiting(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }

  advance(ms: number): void {
    this.time += ms;
    const due = [...this.pending.entries()].filter(([, t]) => t.at <= this.time).sort(([, a], [, b]) => a.at - b.at);
    for (const [id, t] of due) {
      this.pending.delete(id);
      t.fn();
    }
  }
}

let files: DownloadServer;
let core: ReturnType<typeof bootTestCore> | null = null;
beforeAll(async () => {
  files = await startDownloadServer();
});
afterAll(async () => {
  await files.close();
});
afterEach(async () => {
  files.release();
  await core?.remove();
  core = null;
});

function boot(downloads: Pick<DownloadsOptions, 'timers' | 'stallMs' | 'giveUpAfterMs' | 'freeBytes' | 'backoffMs' | 'reachable'>) {
  // The free-space reserve is downloads-limits.test.ts's subject: here only the file's own size counts.
  const data = tempDir();
  writeFileSync(join(data.dir, 'parley.toml'), '[local_models]\ndownload_reserve_gb = 0\n');
  const booted = bootTestCore({ dataDir: data.dir, downloads });
  const removeCore = booted.remove;
  core = Object.assign(booted, {
    remove: async () => {
      await removeCore();
      data.remove();
    },
  });
  const c = core;
  const part = (id: string) => join(c.dataDir, 'downloads', `${id}.part`);
  const partSize = (id: string) => (existsSync(part(id)) ? readFileSync(part(id)).length : null);
  return { downloads: c.runtime.downloads, dataDir: c.dataDir, part, partSize };
}

/**
 * Waits until the download sleeps `ms` before its next try, and answers it then. The only other
 * timer a wait sets is the check whether the network is back (every 5 s during a longer wait).
 */
const waitingToRetry = (get: () => DownloadView, timers: HandTimers, ms = 1000) =>
  vi.waitFor(() => {
    const d = get();
    if (d.retry_at === null) throw new Error(`not waiting: ${d.status} ${d.error ?? ''}`);
    expect(timers.waiting().sort((a, b) => b - a)).toEqual(ms > 5000 ? [ms, 5000] : [ms]);
    return d;
  });
const settled = (get: () => DownloadView) =>
  vi.waitFor(() => {
    const d = get();
    if (!['complete', 'failed', 'cancelled'].includes(d.status)) throw new Error(`still ${d.status}`);
    return d;
  });
/** Cuts the connection once the download has every byte sent before the cut point. */
async function cutAt(get: () => DownloadView, bytes: number) {
  await vi.waitFor(() => expect(get().bytes_done).toBe(bytes));
  files.cut();
}
const rangesAsked = (path: string) => files.requests.filter((r) => r.path === path).map((r) => r.range);

describe('a download over a bad network', () => {
  it('survives cut connections and a network that is down for a while, resuming from its bytes each time, and completes with the right SHA-256', async () => {
    const timers = new HandTimers();
    const { downloads, dataDir, partSize } = boot({ timers });
    const bytes = ggufBytes(500_000);
    const url = files.add('/flaky/model.gguf', { bytes, cutsAt: [100_000, 200_000, 300_000] });
    const { id } = downloads.start({ url, sha256: sha256(bytes) }, null);
    const get = () => downloads.get(id);

    // Cut at 100 000: it waits a second, still `downloading`, its bytes on disk.
    await cutAt(get, 100_000);
    let d = await waitingToRetry(get, timers);
    expect(d).toMatchObject({ status: 'downloading', bytes_done: 100_000 });
    expect(d.error).toMatch(/waiting for the network, retrying in 1 s/);
    expect(Date.parse(d.retry_at ?? '')).toBeGreaterThan(0);
    expect(partSize(id)).toBe(100_000);
    timers.advance(1000);

    // Cut at 200 000; then the network goes away for 10 tries: each waits twice as long, up to a minute.
    await cutAt(get, 200_000);
    await waitingToRetry(get, timers);
    expect(partSize(id)).toBe(200_000);
    await files.refuse();
    timers.advance(1000);
    const waits = [2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 60_000];
    for (const [i, wait] of waits.entries()) {
      d = await waitingToRetry(get, timers, wait);
      expect(d).toMatchObject({ status: 'downloading', bytes_done: 200_000 });
      expect(d.error).toMatch(new RegExp(`ECONNREFUSED.*retrying in ${wait / 1000} s`));
      expect(partSize(id)).toBe(200_000);
      if (i === waits.length - 1) await files.accept();
      timers.advance(wait);
    }

    // Back online: goes on from 200 000, is cut once more at 300 000, then finishes.
    await cutAt(get, 300_000);
    await waitingToRetry(get, timers);
    expect(partSize(id)).toBe(300_000);
    timers.advance(1000);
    d = await settled(get);
    expect(d).toMatchObject({ status: 'complete', sha256: sha256(bytes), bytes_done: 500_000, error: null, retry_at: null });
    expect(rangesAsked('/flaky/model.gguf')).toEqual([null, 'bytes=100000-', 'bytes=200000-', 'bytes=300000-']);
    expect(readFileSync(join(dataDir, 'models', 'model.gguf')).equals(bytes)).toBe(true);
  });

  it('goes on within seconds of the network coming back, not at the end of a long wait', async () => {
    const timers = new HandTimers();
    let probes = 0;
    const { downloads } = boot({
      timers,
      backoffMs: () => 60_000,
      reachable: async (url) => {
        probes++;
        return hostAnswers(url);
      },
    });
    const bytes = ggufBytes(300_000);
    const url = files.add('/back/model.gguf', { bytes, cutsAt: [100_000] });
    const { id } = downloads.start({ url, sha256: sha256(bytes) }, null);
    const get = () => downloads.get(id);

    // The connection is cut at 100 000 and the network goes away: a minute's wait.
    await cutAt(get, 100_000);
    await waitingToRetry(get, timers, 60_000);
    await files.refuse();
    // Still down at the first check: it keeps waiting, and checks again 5 s later.
    timers.advance(5000);
    await vi.waitFor(() => expect(probes).toBe(1));
    await vi.waitFor(() => expect(timers.waiting().sort((a, b) => b - a)).toEqual([60_000, 5000]));
    expect(get()).toMatchObject({ status: 'downloading', bytes_done: 100_000 });

    // Back: the next check finds it, 10 s into a minute's wait, and the download goes on from its bytes.
    await files.accept();
    timers.advance(5000);
    expect(await settled(get)).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
    expect(probes).toBe(2);
    expect(timers.now()).toBe(10_000);
    expect(rangesAsked('/back/model.gguf')).toEqual([null, 'bytes=100000-']);
  });

  it('drops a connection whose body stalls for 30 s and resumes from the bytes that arrived', async () => {
    const timers = new HandTimers();
    const { downloads, dataDir } = boot({ timers });
    const bytes = ggufBytes(300_000);
    const url = files.add('/stall/body.gguf', { bytes, holdAt: 120_000 });
    const { id } = downloads.start({ url, sha256: sha256(bytes) }, null);
    const get = () => downloads.get(id);

    await vi.waitFor(() => expect(get().bytes_done).toBe(120_000));
    // Only the stall watchdog runs; a moment short of 30 s nothing happens.
    expect(timers.waiting()).toEqual([30_000]);
    timers.advance(29_999);
    expect(get()).toMatchObject({ status: 'downloading', retry_at: null });
    timers.advance(1);

    const d = await waitingToRetry(get, timers);
    expect(d.error).toMatch(/no byte arrived for 30 s/);
    timers.advance(1000);
    expect(await settled(get)).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
    expect(rangesAsked('/stall/body.gguf')).toEqual([null, 'bytes=120000-']);
    expect(readFileSync(join(dataDir, 'models', 'body.gguf')).equals(bytes)).toBe(true);
  });

  it('drops a server that accepts and never answers after the configured stall time', async () => {
    const timers = new HandTimers();
    const { downloads } = boot({ timers, stallMs: 5000 });
    const bytes = ggufBytes(50_000);
    const url = files.add('/stall/silent.gguf', { bytes, silentTimes: 1 });
    const { id } = downloads.start({ url }, null);
    const get = () => downloads.get(id);

    await vi.waitFor(() => expect(rangesAsked('/stall/silent.gguf')).toHaveLength(1));
    await vi.waitFor(() => expect(timers.waiting()).toEqual([5000]));
    timers.advance(5000);
    expect((await waitingToRetry(get, timers)).error).toMatch(/no byte arrived for 5 s/);
    timers.advance(1000);
    expect(await settled(get)).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
  });

  it('gives up when no byte has arrived for the bound, keeping nothing it did not get', async () => {
    const timers = new HandTimers();
    const { downloads } = boot({ timers, giveUpAfterMs: 10_000 });
    await files.refuse();
    try {
      const { id } = downloads.start({ url: `${files.url}/gone/model.gguf` }, null);
      const get = () => downloads.get(id);
      // 1 + 2 + 4 + 8 s: the try after 15 s without a byte is the last.
      for (const wait of [1000, 2000, 4000, 8000]) {
        await waitingToRetry(get, timers, wait);
        timers.advance(wait);
      }
      const d = await settled(get);
      expect(d.status).toBe('failed');
      expect(d.error).toMatch(/^No byte arrived for 10 s \(fetch failed \(ECONNREFUSED\)\); the download was stopped\.$/);
    } finally {
      await files.accept();
    }
  });
});

describe('disk space and the bytes of a failed download', () => {
  it('refuses to start without room for the file, before writing a byte', async () => {
    const { downloads, dataDir, partSize } = boot({ freeBytes: () => Promise.resolve(100_000) });
    const bytes = ggufBytes(600_000);
    const { id } = downloads.start({ url: files.add('/disk/big.gguf', { bytes }) }, null);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Not enough disk space: the model needs 586 KB more, but only 98 KB are free where Parley keeps its data \(.+\)\. Free some space and download again\.$/);
    expect(partSize(id)).toBeNull();
    expect(existsSync(join(dataDir, 'models', 'big.gguf'))).toBe(false);
  });

  it('checks again when resuming; the bytes of a download that failed for room are kept, and downloading the URL again goes on from them', async () => {
    const timers = new HandTimers();
    let free = 10_000_000;
    const { downloads, dataDir, partSize } = boot({ timers, freeBytes: () => Promise.resolve(free) });
    const bytes = ggufBytes(600_000);
    const url = files.add('/disk/resume.gguf', { bytes, cutsAt: [200_000] });
    const first = downloads.start({ url }, null);
    await cutAt(() => downloads.get(first.id), 200_000);
    await waitingToRetry(() => downloads.get(first.id), timers);
    free = 300_000;
    timers.advance(1000);

    const failed = await settled(() => downloads.get(first.id));
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Not enough disk space: the model needs 391 KB more, but only 293 KB are free/);
    expect(failed.error).toMatch(/The 195 KB downloaded so far are kept: download the same URL again to go on from there\.$/);
    expect(partSize(first.id)).toBe(200_000);

    free = 10_000_000;
    const again = downloads.start({ url, sha256: sha256(bytes) }, null);
    expect(again).toMatchObject({ bytes_done: 200_000, resumes: 1 });
    expect(partSize(first.id)).toBeNull();
    expect(await settled(() => downloads.get(again.id))).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
    const asked = files.requests.filter((r) => r.path === '/disk/resume.gguf');
    expect(asked.map((r) => r.range)).toEqual([null, 'bytes=200000-', 'bytes=200000-']);
    expect(asked[2]?.ifRange).toMatch(/^"/);
    expect(readFileSync(join(dataDir, 'models', 'resume.gguf')).equals(bytes)).toBe(true);
  });

  it('still removes the bytes of a file whose checksum does not match, after resuming it', async () => {
    const timers = new HandTimers();
    const { downloads, partSize } = boot({ timers });
    const url = files.add('/disk/corrupt.gguf', { bytes: ggufBytes(120_000), cutsAt: [50_000] });
    const { id } = downloads.start({ url, sha256: 'c'.repeat(64) }, null);
    await cutAt(() => downloads.get(id), 50_000);
    await waitingToRetry(() => downloads.get(id), timers);
    expect(partSize(id)).toBe(50_000);
    timers.advance(1000);
    const d = await settled(() => downloads.get(id));
    expect(d.status).toBe('failed');
    expect(d.error).toMatch(/^Checksum mismatch/);
    expect(d.error).not.toMatch(/kept/);
    expect(partSize(id)).toBeNull();
  });
});
