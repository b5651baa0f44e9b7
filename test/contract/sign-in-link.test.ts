import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInCode } from '../../main/core/platform/auth/sign-in-code.js';
import { startTestHttp } from '../support/core.js';
import { startServed, type Served } from '../support/served.js';

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await res.json()) as { code: string; status: number; detail: string };
}

const redeemBody = (code: string) => JSON.stringify({ code });

describe('sign-in codes (POST /api/sign-in-codes/redeem)', () => {
  let h: Awaited<ReturnType<typeof startTestHttp>>;
  let clock = new Date('2026-11-23T09:00:00Z');
  beforeAll(async () => {
    h = await startTestHttp({ now: () => clock });
  });
  afterAll(() => h.close());
  const issue = () => issueSignInCode(h.core.repos, h.core.owner.userId, clock).code;
  const redeem = (code: string) => h.api('/sign-in-codes/redeem', { method: 'POST', body: redeemBody(code), token: null });

  it("works once, without a token, giving a new API key of the owner named 'Browser sign-in'", async () => {
    const code = issue();
    const res = await redeem(code);
    expect(res.status).toBe(201);
    const key = (await res.json()) as { key: string; name: string; id: string };
    expect(key.name).toBe('Browser sign-in');
    const me = (await (await h.api('/me', { token: key.key })).json()) as { user: { id: string; role: string } };
    expect(me.user).toMatchObject({ id: h.core.owner.userId, role: 'super_admin' });
    const listed = (await (await h.api('/api-keys', { token: key.key })).json()) as { data: { id: string; name: string }[] };
    expect(listed.data).toContainEqual(expect.objectContaining({ id: key.id, name: 'Browser sign-in' }));

    const again = await redeem(code);
    expect(again.status).toBe(401);
    expect(await problem(again)).toMatchObject({ code: 'unauthenticated', detail: expect.stringContaining('already used') });
  });

  it('lasts 10 minutes: refused as expired after that, and gone for good once tried', async () => {
    const fresh = issue();
    clock = new Date(clock.getTime() + 10 * 60_000 - 1000);
    expect((await redeem(fresh)).status).toBe(201);

    const stale = issue();
    const issuedAt = clock;
    clock = new Date(clock.getTime() + 10 * 60_000);
    const res = await redeem(stale);
    expect(res.status).toBe(401);
    expect(await problem(res)).toMatchObject({ code: 'unauthenticated', detail: expect.stringContaining('expired') });
    clock = issuedAt;
    expect((await redeem(stale)).status).toBe(401);
  });

  it('refuses a wrong code and a code replaced by a newer one with a problem, and malformed input with 400', async () => {
    issue();
    const wrong = await redeem('not-the-code_0123456789');
    expect(wrong.status).toBe(401);
    expect((await problem(wrong)).code).toBe('unauthenticated');

    const first = issue();
    const second = issue();
    expect((await redeem(first)).status).toBe(401);
    expect((await redeem(second)).status).toBe(201);

    const empty = await h.api('/sign-in-codes/redeem', { method: 'POST', body: JSON.stringify({ code: '' }), token: null });
    expect(empty.status).toBe(400);
    expect((await problem(empty)).code).toBe('invalid_argument');
    const missing = await h.api('/sign-in-codes/redeem', { method: 'POST', body: '{}', token: null });
    expect((await problem(missing)).code).toBe('invalid_argument');
  });
});

describe('served mode prints the sign-in link', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-sign-in-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const serve = async (options: Parameters<typeof startServed>[0]) => {
    const served = await startServed(options);
    cleanups.push(() => served.stop());
    return served;
  };
  const codeOf = (served: Served) => {
    const link = served.signInLink;
    expect(link).toMatch(new RegExp(`^${served.url.replace(/\./g, '\\.')}/#/sign-in/[A-Za-z0-9_-]{20,}$`));
    return (link ?? '').split('/').pop() ?? '';
  };
  const redeem = (served: Served, code: string) => served.api('/sign-in-codes/redeem', { body: { code }, token: null });

  it('on a first run without PARLEY_ADMIN_API_KEY creates the owner and prints a link that signs in as them; every start prints a new one', async () => {
    const dir = dataDir();
    const first = await serve({ dataDir: dir, adminApiKey: null });
    const firstCode = codeOf(first);
    const res = await redeem(first, firstCode);
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    const me = (await (await first.api('/me', { token: key })).json()) as { user: { role: string; email: string } };
    expect(me.user).toMatchObject({ role: 'super_admin', email: 'owner@localhost' });
    await first.stop();

    const second = await serve({ dataDir: dir, adminApiKey: null });
    const secondCode = codeOf(second);
    expect(secondCode).not.toBe(firstCode);
    expect((await redeem(second, firstCode)).status).toBe(401);
    expect((await redeem(second, secondCode)).status).toBe(201);
  });

  it('prints none with --no-sign-in-link, nor on the first start that seeds PARLEY_ADMIN_API_KEY; later starts do', async () => {
    const quiet = await serve({ adminApiKey: null, args: ['--no-sign-in-link'] });
    expect(quiet.output()).toMatch(/^Parley listening on /m);
    expect(quiet.signInLink).toBeNull();

    const dir = dataDir();
    const seeded = await serve({ dataDir: dir });
    expect(seeded.signInLink).toBeNull();
    await seeded.stop();
    const later = await serve({ dataDir: dir, adminApiKey: null });
    expect((await redeem(later, codeOf(later))).status).toBe(201);
  });
});
