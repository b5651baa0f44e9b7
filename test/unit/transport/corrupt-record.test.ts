/**
 * Issue 32, item 4: a record whose stored JSON Parley cannot read (a hand-edited database, a
 * damaged disk) answers a stable `corrupt_record` naming the table, column and row to mend, over
 * HTTP and IPC alike — not a bare `internal` — and never shows the parse error or a stack.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerIpc, type IpcDeps } from '../../../main/transport/ipc/index.js';
import type { Core } from '../../../main/boot.js';
import { FakeIpcMain } from '../../support/fake-ipc.js';
import { bootTestCore, startTestHttp } from '../../support/core.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A dataset with one followed folder whose globs no longer parse. */
function corruptFolder(core: Core): string {
  const user = core.desktopCaller().user;
  const now = new Date().toISOString();
  core.repos.datasets.insert({ id: 'ds_c', kb_id: 'kb_c', organization_id: user.organization_id, owner_id: user.id, name: 'd', description: null, now });
  core.repos.folders.insert({ id: 'fld_c', dataset_id: 'ds_c', user_id: user.id, path: '/tmp/followed', include: ['**/*.md'], exclude: [], now });
  core.db.prepare("UPDATE folders SET include = '[\"**/*.md\"' WHERE id = 'fld_c'").run();
  return 'ds_c';
}

function expectNamedWithoutInternals(detail: string) {
  expect(detail).toContain('folders.include of fld_c');
  expect(detail).not.toMatch(/SyntaxError|JSON|\n\s+at /);
}

describe('a corrupt stored record', () => {
  it('over HTTP: 500 corrupt_record, a problem naming the table, column and row', async () => {
    const h = await startTestHttp();
    cleanups.push(() => h.close());
    const id = corruptFolder(h.core);
    const res = await h.api(`/datasets/${id}/folders`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { type: string; code: string; status: number; title: string; detail: string };
    expect(problem).toMatchObject({ type: 'urn:parley:problem:corrupt_record', code: 'corrupt_record', status: 500, title: 'Corrupt record' });
    expectNamedWithoutInternals(problem.detail);
  });

  it('over IPC: the same code and detail, logged with its cause', async () => {
    const core = bootTestCore();
    cleanups.push(() => core.remove());
    const ipcMain = new FakeIpcMain();
    const logError = vi.fn<IpcDeps['logError']>();
    cleanups.push(registerIpc({ ipcMain, service: core.service, desktopCaller: core.desktopCaller, isTrustedUrl: () => true, logError }));
    const id = corruptFolder(core);
    const result = await ipcMain.call({ operation: 'folders.list', input: { id } });
    if (result.ok) throw new Error(`expected corrupt_record, got ${JSON.stringify(result.value)}`);
    expect(result.error).toMatchObject({ code: 'corrupt_record', status: 500 });
    expectNamedWithoutInternals(result.error.detail);
    expect(logError).toHaveBeenCalledOnce();
  });
});
