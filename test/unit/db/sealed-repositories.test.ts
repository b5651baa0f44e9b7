/**
 * Issue 13, item 2: the repositories are the storage seam. The core gets no connection and no
 * engine type from them (a PostgreSQL implementation could stand in), and the engine's failures
 * leave them typed.
 */
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { StorageFullError } from '../../../main/db/errors.js';
import type { Repositories } from '../../../main/db/repositories/index.js';
import { bootTestCore, sqliteOf } from '../../support/core.js';

let core: ReturnType<typeof bootTestCore>;
beforeEach(() => {
  core = bootTestCore();
});
afterEach(() => core.remove());

describe('sealed repositories', () => {
  it('a write answers nothing of the engine (no RunResult), by type and at run time', () => {
    expectTypeOf<ReturnType<Repositories['threads']['touch']>>().toEqualTypeOf<void>();
    expectTypeOf<ReturnType<Repositories['messages']['setModel']>>().toEqualTypeOf<void>();
    const user = core.desktopCaller().user;
    const now = new Date().toISOString();
    core.repos.threads.insert({ id: 'thr_s', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
    expect(core.repos.threads.touch('thr_s', now)).toBeUndefined();
    // Reads still answer their rows.
    expect(core.repos.threads.get('thr_s')).toMatchObject({ id: 'thr_s', title: 't' });
  });

  it('SQLite refusing a write as full is a StorageFullError, in a repository function and in a transaction', () => {
    const user = core.desktopCaller().user;
    const pages = sqliteOf(core).pragma('page_count', { simple: true }) as number;
    sqliteOf(core).pragma(`max_page_count = ${pages}`);
    const write = (i: number) =>
      core.repos.threads.insert({ id: `thr_${i}`, user_id: user.id, workspace_id: user.workspace_id, title: 'x'.repeat(190), suggestions_enabled: false, system_prompt: 'p'.repeat(4000), workflow_id: null, dataset_ids: [], now: new Date().toISOString() });
    let failure: unknown;
    for (let i = 0; i < 500 && !failure; i++) {
      try {
        write(i);
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(StorageFullError);
    expect(() => core.repos.transaction(() => write(10_000))).toThrow(StorageFullError);
    expect(core.repos.threads.get('thr_10000')).toBeUndefined();
  });
});
