import { randomBytes } from 'node:crypto';
import type { Repositories } from '../../../db/repositories/index.js';

const SETTING = 'upload_signing_key';

/** The key that signs upload URLs: made once per install, kept so URLs stay valid across restarts. */
export function uploadSigningKey(repos: Repositories): Buffer {
  const stored = repos.settings.get(SETTING);
  if (stored) return Buffer.from(stored, 'hex');
  const key = randomBytes(32);
  repos.settings.set(SETTING, key.toString('hex'));
  return key;
}
