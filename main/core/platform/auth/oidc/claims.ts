import type { z } from 'zod';
import type { OidcConfig } from '../../../../../shared/config.js';

type Oidc = z.output<typeof OidcConfig>;
type MappedRole = Oidc['roles'][string];

/** Higher wins when a user is in several mapped groups. */
const RANK: Record<MappedRole, number> = { member: 0, admin: 1, super_admin: 2 };

/** What Parley makes of a provider's user: the role and organization its groups map to, and how to name them. */
export interface MappedUser {
  subject: string;
  email: string | undefined;
  /** The provider vouches for the email (`email_verified`): only then may it match an existing user. */
  email_verified: boolean;
  name: string;
  groups: string[];
  role: MappedRole;
  /** The organization's name; undefined when no group maps to one. */
  organization: string | undefined;
}

/** A groups claim as providers send it: a list of names, or one name (a few send a space-separated string). */
export function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string' && g.length > 0);
  if (typeof value === 'string') return value.split(/\s+/).filter((g) => g.length > 0);
  return [];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * Maps the ID token's (and userinfo's) claims through `[auth.oidc]`: the highest role any of the
 * user's groups grants (member when none), and the organization of the first group listed in the
 * configuration that the user has (the configuration's order, not the provider's, decides).
 */
export function mapClaims(claims: Record<string, unknown>, config: Pick<Oidc, 'groups_claim' | 'roles' | 'organizations'>): MappedUser {
  const subject = text(claims.sub);
  if (!subject) throw new Error('The ID token has no subject.');
  const groups = groupsOf(claims[config.groups_claim]);
  const has = new Set(groups);
  let role: MappedRole = 'member';
  for (const [group, granted] of Object.entries(config.roles)) {
    if (has.has(group) && RANK[granted] > RANK[role]) role = granted;
  }
  const organization = Object.entries(config.organizations).find(([group]) => has.has(group))?.[1];
  const email = text(claims.email)?.toLowerCase();
  const name = text(claims.name) ?? text(claims.preferred_username) ?? email ?? subject;
  return { subject, email, email_verified: claims.email_verified === true, name: name.slice(0, 200), groups, role, organization };
}
