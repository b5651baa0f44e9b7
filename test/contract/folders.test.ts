/**
 * Watched folders over HTTP in served mode (issue 30): only admins follow folders, only under
 * `[folders] allowed_roots` when set, and a bad path is a 422 naming `path`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestHttp, tempDir } from '../support/core.js';
import { call, person } from '../support/people.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;
const dir = tempDir('parley-followed-');
beforeAll(async () => {
  h = await startTestHttp({ folderTiming: { stabilityMs: 100 } });
});
afterAll(async () => {
  await h.close();
  dir.remove();
});

type Problem = { code: string; errors?: { path: string }[] };

describe('following a folder in served mode', () => {
  it('refuses a member (403) and lets an admin follow a folder, listed with its progress', async () => {
    const member = await person(h.api, 'member');
    const admin = await person(h.api, 'admin');
    const ds = await call<{ id: string; kb_id: string }>(h.api, '/datasets', { body: { name: 'Served folder' } });
    writeFileSync(join(dir.dir, 'served.txt'), 'served words');
    const refused = await call<Problem>(h.api, `/datasets/${ds.body.id}/folders`, { body: { path: dir.dir }, token: member.key });
    expect(refused.status).toBe(403);
    const made = await call<{ id: string; status: string }>(h.api, `/datasets/${ds.body.id}/folders`, { body: { path: dir.dir }, token: admin.key });
    expect(made.status).toBe(201);
    await vi.waitFor(async () => {
      const f = await call<{ status: string; files: { ready: number } }>(h.api, `/datasets/${ds.body.id}/folders/${made.body.id}`, { token: member.key });
      expect(f.body).toMatchObject({ status: 'watching', files: { ready: 1 } });
    }, { timeout: 20_000, interval: 50 });
    const artifacts = await call<{ data: { key: string; source: unknown }[] }>(h.api, `/knowledge-bases/${ds.body.kb_id}/artifacts`);
    expect(artifacts.body.data).toEqual([expect.objectContaining({ key: 'served.txt', source: { folder_id: made.body.id, path: 'served.txt' } })]);
    // The file list by folder and by source, over query parameters.
    const byFolder = await call<{ data: { key: string }[] }>(h.api, `/knowledge-bases/${ds.body.kb_id}/artifacts?folder_id=${made.body.id}`, { token: member.key });
    expect(byFolder.body.data.map((a) => a.key)).toEqual(['served.txt']);
    const uploads = await call<{ data: unknown[] }>(h.api, `/knowledge-bases/${ds.body.kb_id}/artifacts?source=upload`, { token: member.key });
    expect(uploads.body.data).toEqual([]);
    expect((await call<Problem>(h.api, `/knowledge-bases/${ds.body.kb_id}/artifacts?source=upload&folder_id=${made.body.id}`)).status).toBe(400);
    // Where folders may be followed is the server's disk: told to admins, not to members.
    const asMember = await call<{ data: unknown[]; allowed_roots: unknown }>(h.api, `/datasets/${ds.body.id}/folders`, { token: member.key });
    expect(asMember.body).toMatchObject({ data: [expect.objectContaining({ id: made.body.id })], allowed_roots: null });
    const asAdmin = await call<{ allowed_roots: unknown }>(h.api, `/datasets/${ds.body.id}/folders`, { token: admin.key });
    expect(asAdmin.body.allowed_roots).toEqual([]);
    expect((await call(h.api, `/datasets/${ds.body.id}/folders/${made.body.id}`, { method: 'PATCH', body: { status: 'paused' }, token: member.key })).status).toBe(403);
    expect((await call(h.api, `/datasets/${ds.body.id}/folders/${made.body.id}`, { method: 'DELETE', token: member.key })).status).toBe(403);
  });

  it('answers 422 naming path for a relative, missing, non-directory or unreadable path, and one outside allowed_roots', async () => {
    const ds = await call<{ id: string }>(h.api, '/datasets', { body: { name: 'Bad paths' } });
    writeFileSync(join(dir.dir, 'plain.txt'), 'x');
    const locked = join(dir.dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    const unreadable = process.getuid?.() === 0 ? [] : [locked];
    for (const path of ['some/relative', join(dir.dir, 'nope'), join(dir.dir, 'plain.txt'), ...unreadable]) {
      const r = await call<Problem>(h.api, `/datasets/${ds.body.id}/folders`, { body: { path } });
      expect(r.status, path).toBe(422);
      expect(r.body.errors?.[0]?.path, path).toBe('path');
    }
    chmodSync(locked, 0o700);
    const state = await call<{ version: number }>(h.api, '/admin/config');
    const allowed = join(dir.dir, 'allowed');
    mkdirSync(allowed);
    const patched = await call(h.api, '/admin/config', { method: 'PATCH', body: { values: { 'folders.allowed_roots': [allowed] }, base_version: state.body.version } });
    expect(patched.status).toBe(200);
    const outside = await call<Problem>(h.api, `/datasets/${ds.body.id}/folders`, { body: { path: locked } });
    expect(outside.status).toBe(422);
    expect(outside.body.errors?.[0]?.path).toBe('path');
    expect((await call(h.api, `/datasets/${ds.body.id}/folders`, { body: { path: allowed } })).status).toBe(201);
  });
});
