import type { Repositories } from '../../../db/repositories/index.js';
import { issueApiKey } from './api-keys.js';
import { newId } from '../ids.js';
import type { CredentialHasher } from '../ports/credentials.js';

const DESKTOP_USER = 'desktop_user_id';
/** The desktop profile's user (the owner), once there is one. */
export const desktopUserId = (repos: Repositories): string | undefined => repos.settings.get(DESKTOP_USER) || undefined;

export const ADMIN_KEY_SHAPE = /^pk_[A-Za-z0-9_-]{16,200}$/;

export interface OwnerOptions {
  name: string;
  /** Seeds the owner's API key on an empty data directory (PARLEY_ADMIN_API_KEY). */
  adminApiKey?: string | undefined;
  now: string;
  /** Hashes the seeded key as every credential is stored. */
  hasher: CredentialHasher;
}

/**
 * On first start, creates the organization, its workspace and the owner (a super admin), and makes
 * the owner the desktop profile. Returns the desktop profile's user id, and whether it was created now.
 */
export function ensureOwner(repos: Repositories, options: OwnerOptions): { userId: string; created: boolean } {
  if (options.adminApiKey !== undefined && !ADMIN_KEY_SHAPE.test(options.adminApiKey)) {
    throw new Error('PARLEY_ADMIN_API_KEY must look like pk_ followed by at least 16 letters, digits, "-" or "_".');
  }
  return repos.transaction(() => {
    const existing = repos.settings.get(DESKTOP_USER);
    if (existing && repos.users.get(existing)) return { userId: existing, created: false };
    if (repos.users.count() > 0) throw new Error('The database has users but no desktop profile; it was not created by Parley.');
    const org = { id: newId('org'), name: 'Personal', workspace_id: newId('wsp'), workspace_name: 'Default', now: options.now };
    repos.users.createOrganization(org);
    const userId = newId('usr');
    repos.users.insert({
      id: userId,
      organization_id: org.id,
      workspace_id: org.workspace_id,
      email: 'owner@localhost',
      name: options.name,
      role: 'super_admin',
      now: options.now,
    });
    if (options.adminApiKey) issueApiKey(repos, options.hasher, userId, 'Admin key (PARLEY_ADMIN_API_KEY)', options.now, options.adminApiKey);
    repos.settings.set(DESKTOP_USER, userId);
    return { userId, created: true };
  });
}
