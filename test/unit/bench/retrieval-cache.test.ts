import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runRetrievalBench } from '../../bench/retrieval.js';
import { tempDir } from '../../support/core.js';

// The retrieval bench embeds the corpus and grows its vector graphs once per corpus, width and
// graph parameters (most of an hour at 1M chunks), then times search on a copy that loads the
// saved graphs. A cache that were not reused, or that left the timed search on exact kNN, would
// make the 1M hybrid figure unmeasurable or wrong.
describe('the retrieval bench cache', () => {
  const { dir: cacheDir, remove } = tempDir();
  afterEach(remove);

  it('embeds once, then times hybrid search on the saved graphs; an unfinished build is never reused', async () => {
    const run = async () => {
      const logs: string[] = [];
      const rows = await runRetrievalBench({ sizes: [800], dimensions: [32], cacheDir, overlapSample: () => 5, questions: 50, log: (line) => logs.push(line) });
      return { rows, logs: logs.join('\n') };
    };

    const first = await run();
    expect(first.logs).toMatch(/embedded 800 chunks \(hashed, 32-d\) and built their graphs/);
    const hybrid = first.rows.find((r) => r.name === 'hybrid top-10 (HNSW, 32-d)');
    expect(hybrid?.recall_at_10).toBeGreaterThanOrEqual(0.9);
    expect(hybrid?.build_s).toBeGreaterThan(0);
    const cached = readdirSync(cacheDir).filter((f) => f.includes('hashed32'));
    expect(cached.filter((f) => f.includes('.partial'))).toEqual([]);
    expect(readdirSync(join(cacheDir, cached.find((f) => f.endsWith('.db'))!.concat('.vectors'))).filter((f) => f.endsWith('.hnsw')).length).toBe(4);

    const second = await run();
    expect(second.logs).not.toMatch(/embedded \d/);
    expect(second.logs).toMatch(/800 chunks with 32-d vectors and their graphs from /);
    expect(second.logs).toMatch(/loaded the saved graphs/);
    // The build's time is the one the cache was made with; recall is the same graphs'.
    expect(second.rows.find((r) => r.name === hybrid!.name)).toMatchObject({ build_s: hybrid!.build_s, recall_at_10: hybrid!.recall_at_10 });

    // Without its facts file (an interrupted build renames it last), the cache is built again.
    const db = join(cacheDir, cached.find((f) => f.endsWith('.db'))!);
    rmSync(`${db}.json`);
    const third = await run();
    expect(third.logs).toMatch(/embedded 800 chunks/);
    expect(existsSync(`${db}.json`)).toBe(true);
  });
});
