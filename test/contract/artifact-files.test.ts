/**
 * Files open from the dataset table: artifacts are listed newest first when asked, and a signed,
 * short-lived link (`artifacts.link`) serves a file to a browser tab that cannot send the Bearer
 * token; wrong, altered, expired and re-uploaded links are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttp } from '../support/core.js';
import { call, person, secondOrganization } from '../support/people.js';

let clock = Date.now();
let h: Awaited<ReturnType<typeof startTestHttp>>;
let kb: string;

type Page = { data: Array<{ key: string }>; next_cursor: string | null };

async function addFile(kbId: string, name: string, text: string, type = 'text/plain', token?: string) {
  const form = new FormData();
  form.append('file', new Blob([text], { type }), name);
  const res = await h.api(`/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form, ...(token ? { token } : {}) });
  expect(res.status, await res.clone().text()).toBe(201);
}

beforeAll(async () => {
  h = await startTestHttp({ now: () => new Date(clock) });
  const ds = await call<{ kb_id: string }>(h.api, '/datasets', { body: { name: 'Files' } });
  kb = ds.body.kb_id;
  for (const name of ['first.txt', 'second.txt', 'third.txt']) await addFile(kb, name, `The ${name} file.`);
  await addFile(kb, 'notes #1.md', '# Notes\n\nMarkdown shown as text.', 'text/markdown');
  await addFile(kb, 'page.html', '<html><body><script>parent.stolen = 1</script><p>hello</p></body></html>', 'text/html');
  // Types are detected while processing; until then a file is only ever an attachment.
  await h.core.runtime.ingest.idle();
});
afterAll(() => h.close());

const link = (kbId: string, key: string, token?: string) =>
  call<{ url: string; expires_at: string }>(h.api, `/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(key)}/link`, { method: 'POST', body: {}, ...(token ? { token } : {}) });

describe('the file list order', () => {
  it('is oldest first by default and newest first with order=newest, paged either way', async () => {
    const oldest = await call<Page>(h.api, `/knowledge-bases/${kb}/artifacts`);
    expect(oldest.body.data.map((a) => a.key)).toEqual(['first.txt', 'second.txt', 'third.txt', 'notes #1.md', 'page.html']);
    const first = await call<Page>(h.api, `/knowledge-bases/${kb}/artifacts?order=newest&limit=2`);
    expect(first.body.data.map((a) => a.key)).toEqual(['page.html', 'notes #1.md']);
    const rest = await call<Page>(h.api, `/knowledge-bases/${kb}/artifacts?order=newest&limit=10&cursor=${first.body.next_cursor}`);
    expect(rest.body.data.map((a) => a.key)).toEqual(['third.txt', 'second.txt', 'first.txt']);
    expect(rest.body.next_cursor).toBeNull();
  });

  it('refuses an order it does not know, naming the field', async () => {
    const res = await call<{ code: string; errors: Array<{ path: string }> }>(h.api, `/knowledge-bases/${kb}/artifacts?order=random`);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.path)).toContain('order');
  });
});

describe('signed file links', () => {
  it('serve the bytes without a token, shown inline, sandboxed and never cached', async () => {
    const res = await link(kb, 'second.txt');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${h.url}/api/knowledge-bases/${kb}/artifacts/second\\.txt/content\\?`));
    expect(Date.parse(res.body.expires_at) - clock).toBeLessThanOrEqual(300_000);
    const file = await fetch(res.body.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('The second.txt file.');
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="second\.txt"/);
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.headers.get('cache-control')).toContain('no-store');
  });

  it('keep a key with # and spaces intact, and show Markdown as plain text', async () => {
    const res = await link(kb, 'notes #1.md');
    const file = await fetch(res.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await file.text()).toContain('Markdown shown as text.');
  });

  it('show HTML only in a sandbox, where its script cannot run as Parley', async () => {
    const file = await fetch((await link(kb, 'page.html')).body.url);
    expect(file.headers.get('content-type')).toMatch(/^text\/html/);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the Bearer route still downloads the file as an attachment', async () => {
    const res = await h.api(`/knowledge-bases/${kb}/artifacts/second.txt/content`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('refuse an altered signature, a link moved to another file, and half a link', async () => {
    const url = new URL((await link(kb, 'second.txt')).body.url);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', `${url.searchParams.get('signature')?.slice(0, -2)}xx`);
    const r1 = await fetch(tampered);
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as { code: string }).code).toBe('forbidden');
    const moved = new URL(url.href.replace('second.txt', 'third.txt'));
    expect((await fetch(moved)).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await fetch(later)).status).toBe(403);
    const half = new URL(url);
    half.searchParams.delete('expires');
    expect((await fetch(half)).status).toBe(400);
  });

  it('expire after five minutes', async () => {
    const url = (await link(kb, 'first.txt')).body.url;
    clock += 301_000;
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expired/);
  });

  it('die with the file: a file removed and uploaded again under its key needs a new link', async () => {
    const url = (await link(kb, 'third.txt')).body.url;
    expect((await h.api(`/knowledge-bases/${kb}/artifacts/third.txt`, { method: 'DELETE' })).status).toBe(204);
    await addFile(kb, 'third.txt', 'Another third file.');
    expect((await fetch(url)).status).toBe(403);
    expect(await (await fetch((await link(kb, 'third.txt')).body.url)).text()).toBe('Another third file.');
  });

  it('are given to anyone who may read the dataset, and not outside its organization', async () => {
    const member = await person(h.api, 'member');
    const res = await link(kb, 'second.txt', member.key);
    expect(res.status).toBe(200);
    const stranger = secondOrganization(h.core);
    expect((await link(kb, 'second.txt', stranger.key)).status).toBe(404);
    expect((await h.api(`/knowledge-bases/${kb}/artifacts/second.txt/link`, { method: 'POST', body: '{}', token: null })).status).toBe(401);
  });
});
