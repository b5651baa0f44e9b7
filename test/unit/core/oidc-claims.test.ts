import { describe, expect, it } from 'vitest';
import { groupsOf, mapClaims } from '../../../main/core/platform/auth/oidc/claims.js';

const config = {
  groups_claim: 'groups',
  roles: { staff: 'member', 'parley-admins': 'admin', root: 'super_admin' } as const,
  organizations: { research: 'Research', sales: 'Sales' },
};

describe('[auth.oidc] claim mapping', () => {
  it('grants the highest role any group maps to, whatever order the provider lists them in', () => {
    expect(mapClaims({ sub: 's', groups: ['staff', 'parley-admins'] }, config).role).toBe('admin');
    expect(mapClaims({ sub: 's', groups: ['root', 'staff', 'parley-admins'] }, config).role).toBe('super_admin');
  });

  it('makes a user whose groups map to nothing a member of no named organization', () => {
    expect(mapClaims({ sub: 's', groups: ['unrelated'] }, config)).toMatchObject({ role: 'member', organization: undefined });
    expect(mapClaims({ sub: 's' }, config)).toMatchObject({ role: 'member', organization: undefined, groups: [] });
  });

  it('picks the organization of the first group listed in the configuration, not in the token', () => {
    expect(mapClaims({ sub: 's', groups: ['sales', 'research'] }, config).organization).toBe('Research');
  });

  it('reads groups from the configured claim, as a list or a space-separated string', () => {
    expect(mapClaims({ sub: 's', roles: 'parley-admins other' }, { ...config, groups_claim: 'roles' }).role).toBe('admin');
    expect(groupsOf(['a', 3, '', 'b'])).toEqual(['a', 'b']);
    expect(groupsOf({ a: 1 })).toEqual([]);
  });

  it('names the user from name, then preferred_username, then email; trusts the email only when verified', () => {
    expect(mapClaims({ sub: 's', name: ' Ada ', email: 'Ada@X.example', email_verified: true }, config)).toMatchObject({ name: 'Ada', email: 'ada@x.example', email_verified: true });
    expect(mapClaims({ sub: 's', preferred_username: 'ada', email: 'ada@x.example', email_verified: 'true' }, config)).toMatchObject({ name: 'ada', email_verified: false });
    expect(mapClaims({ sub: 's' }, config).name).toBe('s');
  });

  it('refuses claims without a subject', () => {
    expect(() => mapClaims({ groups: ['staff'] }, config)).toThrow(/subject/);
  });
});
