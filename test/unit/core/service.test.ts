import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../shared/errors.js';
import { handlers } from '../../../main/core/service/handlers.js';
import { createService } from '../../../main/core/service/service.js';
import { ensureOwner } from '../../../main/core/platform/auth/owner.js';
import { bootTestCore, TEST_ADMIN_KEY } from '../../support/core.js';

const cores: Array<{ remove: () => void }> = [];
afterEach(() => cores.splice(0).forEach((c) => c.remove()));
const boot = () => {
  const core = bootTestCore();
  cores.push(core);
  return core;
};

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe('service.invoke', () => {
  it('refuses unknown operations, anonymous callers and callers below the required role', async () => {
    const core = boot();
    const owner = core.desktopCaller();
    const { user } = (await core.service.invoke('admin.users.create', { email: 'm@example.com', name: 'M' }, owner)) as { user: { id: string } };
    const memberRecord = core.repos.users.get(user.id);
    if (!memberRecord) throw new Error('member missing');
    const member = { user: memberRecord, via: 'api_key' as const };

    expect(await codeOf(core.service.invoke('no.such.op', {}, owner))).toBe('not_found');
    expect(await codeOf(core.service.invoke('__proto__', {}, owner))).toBe('not_found');
    expect(await codeOf(core.service.invoke('identity.me', {}, null))).toBe('unauthenticated');
    expect(await codeOf(core.service.invoke('admin.users.list', {}, member))).toBe('forbidden');
    expect(await codeOf(core.service.invoke('service.health', {}, null))).toBe('no error');
  });

  it('reports every invalid field with its path', async () => {
    const core = boot();
    try {
      await core.service.invoke('admin.users.create', { email: 'nope', name: '', role: 'king' }, core.desktopCaller());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError);
      const paths = (error as ServiceError).errors?.map((e) => e.path).sort();
      expect(paths).toEqual(['email', 'name', 'role']);
    }
  });

  it('lets only declared output fields leave, whatever a handler returns', async () => {
    const core = boot();
    const leaky = createService({
      repos: core.repos,
      config: core.config,
      appVersion: 't',
      runtime: core.runtime,
      handlers: { ...handlers, 'service.health': () => ({ status: 'ok' as const, storage: 'sqlite' as const, instance: 'inst_1', secret_hash: 'abc' }) },
    });
    expect(await leaky.invoke('service.health', {}, null)).toEqual({ status: 'ok', storage: 'sqlite', instance: 'inst_1' });
  });
});

describe('owner', () => {
  it('is created once; a second start keeps the same profile and ignores a new admin key', () => {
    const core = boot();
    const first = core.desktopCaller().user.id;
    const again = ensureOwner(core.repos, { name: 'x', adminApiKey: 'pk_AnotherKeyThatIsLongEnough', now: new Date().toISOString(), hasher: core.runtime.credentials });
    expect(again).toEqual({ userId: first, created: false });
    expect(core.service.authenticate(TEST_ADMIN_KEY).user.id).toBe(first);
    expect(() => core.service.authenticate('pk_AnotherKeyThatIsLongEnough')).toThrow(ServiceError);
  });

  it('refuses an admin key that does not look like an API key', () => {
    const core = boot();
    expect(() => ensureOwner(core.repos, { name: 'x', adminApiKey: 'secret', now: '', hasher: core.runtime.credentials })).toThrow(/PARLEY_ADMIN_API_KEY/);
  });
});
